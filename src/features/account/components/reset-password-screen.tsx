import { TextField } from '../../../components/ui/form-fields.tsx';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { deployment } from '../../../config/deployment.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { refusalMessages } from '../../../lib/auth/messages.ts';
import { FormMessage, firstError } from '../../../components/ui/form-message.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { sessionFromLink, type LinkOutcome } from '../api/session-from-link.ts';
import { useSetNewPassword } from '../api/set-new-password.ts';
import { newPasswordSchema } from '../api/password-schemas.ts';
import { accountErrorMessage } from '../api/account-errors.ts';
import { accountPaths } from '../paths.ts';
import '../account.css';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

const FILES = '/private/files';

/**
 * /reset-password: where recovery and invitation mails lead. The link signs the person in (role checked as
 * at every sign-in), then they choose a password and go on to the files screen.
 */
export function ResetPasswordScreen() {
  const { state } = useAuth();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<LinkOutcome | null>(null);
  const started = useRef(false);
  const save = useSetNewPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useSchemaForm(newPasswordSchema, { defaultValues: { password: '', repeat: '' } });

  useEffect(() => {
    // Once: a link's token is used up by the first attempt.
    if (started.current) return;
    started.current = true;
    void sessionFromLink(window.location).then(setOutcome);
  }, []);

  const submit = handleSubmit((values) =>
    save.mutate(values.password, { onSuccess: () => void navigate(FILES, { replace: true }) }),
  );
  const message =
    firstError(errors) ??
    (save.error ? accountErrorMessage(save.error, 'No se pudo guardar la contraseña. Inténtalo de nuevo.') : null);
  const invited = outcome?.ok === true && outcome.kind === 'invite';
  const usable = state.status === 'signedIn' && (outcome?.ok === true || outcome?.reason === 'missing');

  let body;
  if (outcome === null || (outcome.ok && state.status === 'loading')) {
    body = <Spinner label="Comprobando el enlace…" />;
  } else if (usable) {
    body = (
      <>
        <p className="login-subtitle">
          {invited ? 'Elige la contraseña con la que entrarás a partir de ahora.' : 'Elige una nueva contraseña.'}
        </p>
        <form className="account-form" onSubmit={submit} noValidate aria-describedby="reset-message">
          <TextField
            id="reset-password"
            label="Nueva contraseña"
            type="password"
            autoComplete="new-password"
            invalid={!!errors.password}
            disabled={save.isPending}
            {...register('password')}
          />
          <TextField
            id="reset-repeat"
            label="Repite la contraseña"
            type="password"
            autoComplete="new-password"
            invalid={!!errors.repeat}
            disabled={save.isPending}
            {...register('repeat')}
          />
          <FormMessage id="reset-message" message={message} />
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {save.isPending ? 'Guardando…' : 'Guardar y entrar'}
          </button>
        </form>
      </>
    );
  } else {
    const refusal = state.status === 'signedOut' && state.refusal ? refusalMessages[state.refusal] : null;
    body = (
      <div className="account-sent" role="alert">
        <p>
          {refusal ??
            (outcome.ok || outcome.reason === 'expired'
              ? 'El enlace ha caducado o ya se ha usado. Pide otro y ábrelo en menos de una hora.'
              : 'Este enlace no es válido. Pide otro desde la pantalla de inicio de sesión.')}
        </p>
      </div>
    );
  }

  return (
    <main className="login-page" id="main">
      <section className="login-card account-card" aria-labelledby="reset-title">
        <img src={deployment.logo} alt="" width={56} height={56} />
        <h1 id="reset-title">{invited ? 'Bienvenido a la Mediateca' : 'Nueva contraseña'}</h1>
        {body}
        {!usable && outcome !== null && (
          <p className="account-links">
            <Link to={accountPaths.forgotPassword}>Pedir otro enlace</Link> · <Link to="/login">Iniciar sesión</Link>
          </p>
        )}
      </section>
    </main>
  );
}
