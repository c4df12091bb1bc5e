export function Spinner({ label = 'Cargando…', size = 'medium' }: { label?: string; size?: 'small' | 'medium' }) {
  return (
    <span className={`spinner spinner-${size}`} role="status">
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

export function FullScreenSpinner() {
  return (
    <div className="full-screen-spinner">
      <Spinner label="Cargando la Mediateca…" />
    </div>
  );
}
