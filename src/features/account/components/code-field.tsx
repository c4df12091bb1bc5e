import type { UseFormRegisterReturn } from 'react-hook-form';

/** The 6-digit code of an authenticator app: numeric keyboard on phones, one-time-code autofill. */
export function CodeField({
  id,
  invalid,
  registration,
  disabled,
}: {
  id: string;
  invalid: boolean;
  registration: UseFormRegisterReturn;
  disabled?: boolean;
}) {
  return (
    <>
      <label htmlFor={id}>Código de verificación</label>
      <input
        id={id}
        className="account-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        aria-invalid={invalid}
        disabled={disabled}
        {...registration}
      />
    </>
  );
}
