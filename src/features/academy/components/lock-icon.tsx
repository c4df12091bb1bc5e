/** The lock next to a private category's name; the text alternative says what it means. */
export function LockIcon() {
  return (
    <svg className="academy-lock" role="img" viewBox="0 0 16 16" width="16" height="16" aria-label="Privada">
      <title>Privada</title>
      <rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor" />
      <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}
