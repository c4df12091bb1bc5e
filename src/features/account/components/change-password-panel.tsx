import { useState } from 'react';
import { isAuthApiError } from '@supabase/auth-js';
import { FormMessage, firstError } from '../../../components/ui/form-message.tsx';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';
import { useChangePassword, useSendReauthenticationCode } from '../api/change-password.ts';
import { changePasswordSchema } from '../api/password-schemas.ts';
import { accountErrorMessage } from '../api/account-errors.ts';
import { CodeField } from './code-field.tsx';

const isWrongCurrent = (error: unknown) => isAuthApiError(error) && error.code === 'current_password_invalid';

const CODE_REQUIRED = 'Escribe el código de 6 cifras que te hemos enviado por correo.';

/**
 * 'Cambiar contraseña' in Mi cuenta: the current password, which Auth checks before it changes anything, and
 * the new password twice (the account rules, 6 to 72 characters). When Auth
 * asks to confirm it is really the owner (a session older than a day), the code it mails is asked for below
 * and the same form is sent again with it.
 */
export function ChangePasswordPanel({ email }: { email: string }) {
  const change = useChangePassword();
  const resend = useSendReauthenticationCode();
  const [codeSent, setCodeSent] = useState(false);
  const form = useSchemaForm(changePasswordSchema, {
    defaultValues: { current: '', password: '', repeat: '', code: '' },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(({ current, password, code }) => {
    if (codeSent && !/^\d{6}$/.test(code)) return form.setError('code', { message: CODE_REQUIRED });
    change.mutate(
      { current, password, nonce: codeSent ? code : undefined },
      {
        onSuccess: (outcome) => {
          if (outcome === 'code-sent') return setCodeSent(true);
          setCodeSent(false);
          form.reset();
        },
      },
    );
  });
  const message =
    firstError(errors) ??
    (change.error
      ? accountErrorMessage(change.error, 'No se pudo cambiar la contraseña. Inténtalo de nuevo.')
      : null) ??
    (resend.error ? accountErrorMessage(resend.error, 'No se pudo enviar el código. Inténtalo de nuevo.') : null);

  return (
    <section className="account-panel" aria-labelledby="password-title">
      <h2 id="password-title">Cambiar contraseña</h2>
      <form
        className="account-form account-password"
        onSubmit={(event) => void submit(event)}
        noValidate
        aria-describedby="password-message"
      >
        <label htmlFor="account-current-password">Contraseña actual</label>
        <input
          id="account-current-password"
          type="password"
          autoComplete="current-password"
          aria-invalid={!!errors.current || isWrongCurrent(change.error)}
          disabled={change.isPending}
          {...form.register('current')}
        />
        <label htmlFor="account-password">Nueva contraseña</label>
        <input
          id="account-password"
          type="password"
          autoComplete="new-password"
          aria-invalid={!!errors.password}
          aria-describedby="account-password-hint"
          disabled={change.isPending}
          {...form.register('password')}
        />
        <p id="account-password-hint" className="muted account-hint">
          Entre 6 y 72 caracteres.
        </p>
        <label htmlFor="account-repeat">Repite la nueva contraseña</label>
        <input
          id="account-repeat"
          type="password"
          autoComplete="new-password"
          aria-invalid={!!errors.repeat}
          disabled={change.isPending}
          {...form.register('repeat')}
        />
        {codeSent && (
          <>
            <p className="account-sent" role="status">
              Por seguridad, confirma que eres tú: te hemos enviado un código a {email}.
            </p>
            <CodeField
              id="account-password-code"
              invalid={!!errors.code}
              registration={form.register('code')}
              disabled={change.isPending}
            />
            <button
              type="button"
              className="link-button account-resend"
              disabled={resend.isPending}
              onClick={() => resend.mutate()}
            >
              {resend.isSuccess ? 'Código enviado de nuevo' : 'Enviar otro código'}
            </button>
          </>
        )}
        <FormMessage id="password-message" message={message} />
        <button type="submit" className="button button-primary" disabled={change.isPending}>
          {change.isPending ? 'Guardando…' : 'Cambiar contraseña'}
        </button>
      </form>
    </section>
  );
}
