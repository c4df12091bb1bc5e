import type { ComponentPropsWithRef, ReactNode } from 'react';
import { Link } from 'react-router-dom';

/**
 * The fields of the app's forms. Each is a label and its control as siblings (the form's grid lays them
 * out), and takes react-hook-form's `register(…)` spread as it is, its `ref` included. `invalid` marks the
 * control when the form refuses its value; the form's one message under the fields says why.
 */
interface FieldProps {
  id: string;
  label: ReactNode;
  invalid?: boolean;
  /** This field's own message, for forms that say each field's problem under it. */
  error?: string;
  /** A sentence under the control, read by screen readers with it. */
  hint?: ReactNode;
}

const hintId = (id: string) => `${id}-hint`;

function Hint({ id, hint }: { id: string; hint: ReactNode }) {
  return (
    <p id={hintId(id)} className="admin-form-hint">
      {hint}
    </p>
  );
}

/** A labelled input: text, e-mail, password, URL… */
export function TextField({
  id,
  label,
  invalid,
  error,
  hint,
  ...input
}: FieldProps & Omit<ComponentPropsWithRef<'input'>, 'id'>) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={invalid ?? (error ? true : undefined)}
        aria-describedby={hint ? hintId(id) : undefined}
        {...input}
      />
      {error && <span className="form-error">{error}</span>}
      {hint && <Hint id={id} hint={hint} />}
    </>
  );
}

/** A labelled select; its options are the children. */
export function SelectField({
  id,
  label,
  invalid,
  error,
  hint,
  children,
  ...select
}: FieldProps & Omit<ComponentPropsWithRef<'select'>, 'id'>) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        aria-invalid={invalid ?? (error ? true : undefined)}
        aria-describedby={hint ? hintId(id) : undefined}
        {...select}
      >
        {children}
      </select>
      {error && <span className="form-error">{error}</span>}
      {hint && <Hint id={id} hint={hint} />}
    </>
  );
}

/** A checkbox with its label after it, the whole line clickable. */
export function CheckboxField({
  label,
  ...input
}: { label: ReactNode } & Omit<ComponentPropsWithRef<'input'>, 'type' | 'children'>) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...input} /> {label}
    </label>
  );
}

interface FormActionsProps {
  /** While the form is being saved: the button is disabled and says `pendingLabel`. */
  pending: boolean;
  /** Disabled for another reason too (the form is locked); `pending` by default. */
  disabled?: boolean;
  submitLabel?: string;
  pendingLabel?: string;
  /** Where 'Cancelar' goes; without it there is no 'Cancelar'. */
  cancelTo?: string;
  /** More buttons after these. */
  children?: ReactNode;
}

/** The row under a form: its submit button ('Guardar', 'Guardando…' while saving), then 'Cancelar'. */
export function FormActions({
  pending,
  disabled = pending,
  submitLabel = 'Guardar',
  pendingLabel = 'Guardando…',
  cancelTo,
  children,
}: FormActionsProps) {
  return (
    <div className="admin-form-actions">
      <button type="submit" className="button button-primary" disabled={disabled}>
        {pending ? pendingLabel : submitLabel}
      </button>
      {cancelTo && (
        <Link to={cancelTo} className="button">
          Cancelar
        </Link>
      )}
      {children}
    </div>
  );
}
