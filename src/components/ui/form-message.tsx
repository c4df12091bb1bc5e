import type { FieldErrors, FieldValues } from 'react-hook-form';

/** The first validation message of a form: 'Todos los campos son obligatorios' or an 'El campo …' rule. */
export function firstError<T extends FieldValues>(errors: FieldErrors<T>): string | undefined {
  for (const error of Object.values(errors)) {
    if (error && typeof error.message === 'string') return error.message;
  }
  return undefined;
}

/** Where a form says what is wrong, announced to screen readers as it appears. */
export function FormMessage({ id, message }: { id: string; message?: string | null }) {
  return (
    <p id={id} className="form-error" role="alert">
      {message}
    </p>
  );
}
