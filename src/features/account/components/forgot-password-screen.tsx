import { TextField } from '../../../components/ui/form-fields.tsx';
import { Link } from 'react-router-dom';
import { deployment } from '../../../config/deployment.ts';
import { FormMessage } from '../../../components/ui/form-message.tsx';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';
import { forgotPasswordSchema } from '../api/password-schemas.ts';
import { accountErrorMessage } from '../api/account-errors.ts';
import '../account.css';
import { useMutationForm } from '../../../lib/forms/use-mutation-form.ts';

/** /forgot-password: the address to mail a recovery link to, then what to do next. */
export function ForgotPasswordScreen() {
  const request = useRequestPasswordReset();
  const {
    form: {
      register,
      getValues,
      formState: { errors },
    },
    submit,
    message,
  } = useMutationForm({
    schema: forgotPasswordSchema,
    defaultValues: { email: '' },
    mutation: request,
    variables: (values) => values.email,
    errorMessage: (error) => accountErrorMessage(error, 'No se pudo enviar el correo. Inténtalo de nuevo.'),
  });

  return (
    <main className="login-page" id="main">
      <section className="login-card account-card" aria-labelledby="forgot-title">
        <img src={deployment.logo} alt="" width={56} height={56} />
        <h1 id="forgot-title">¿Has olvidado tu contraseña?</h1>
        {request.isSuccess ? (
          <div className="account-sent" role="status">
            <p>
              Te hemos enviado un correo a <strong>{getValues('email').trim()}</strong> con un enlace para elegir una
              nueva contraseña.
            </p>
            <p>El enlace caduca en una hora. Si no lo ves, mira en la carpeta de correo no deseado.</p>
          </div>
        ) : (
          <>
            <p className="login-subtitle">Escribe tu correo y te enviaremos un enlace para elegir una nueva.</p>
            <form className="account-form" onSubmit={submit} noValidate aria-describedby="forgot-message">
              <TextField
                id="forgot-email"
                label="Correo electrónico"
                type="email"
                autoComplete="email"
                invalid={!!errors.email}
                disabled={request.isPending}
                {...register('email')}
              />
              <FormMessage id="forgot-message" message={message} />
              <button type="submit" className="button button-primary" disabled={request.isPending}>
                {request.isPending ? 'Enviando…' : 'Enviar enlace'}
              </button>
            </form>
          </>
        )}
        <p className="account-links">
          <Link to="/login">Volver a iniciar sesión</Link>
        </p>
      </section>
    </main>
  );
}
