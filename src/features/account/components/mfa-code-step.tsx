import { FormMessage } from '../../../components/ui/form-message.tsx';
import { useSignInCode } from '../api/verify-code.ts';
import { codeSchema } from '../api/code-schema.ts';
import { accountErrorMessage } from '../api/account-errors.ts';
import { CodeField } from './code-field.tsx';
import '../account.css';
import { useMutationForm } from '../../../lib/forms/use-mutation-form.ts';

/**
 * The second step of signing in for an account with an authenticator app. Once the code is right the
 * session is aal2 and the usual role check lets the person in.
 */
export function MfaCodeStep({ factorId, onCancel }: { factorId: string; onCancel: () => void }) {
  const verify = useSignInCode();
  const {
    form: {
      register,
      formState: { errors },
    },
    submit,
    message,
  } = useMutationForm({
    schema: codeSchema,
    defaultValues: { code: '' },
    mutation: verify,
    variables: ({ code }) => ({ factorId, code }),
    errorMessage: (error) => accountErrorMessage(error, 'No se pudo comprobar el código.'),
  });
  return (
    <form className="account-form" onSubmit={submit} noValidate aria-describedby="mfa-message">
      <p className="login-subtitle">Abre tu aplicación de autenticación y escribe el código de 6 cifras que muestra.</p>
      <CodeField
        id="mfa-code"
        invalid={!!errors.code || !!verify.error}
        registration={register('code')}
        disabled={verify.isPending || verify.isSuccess}
      />
      <FormMessage id="mfa-message" message={message} />
      <button type="submit" className="button button-primary" disabled={verify.isPending || verify.isSuccess}>
        {verify.isPending || verify.isSuccess ? 'Comprobando…' : 'Verificar'}
      </button>
      <button type="button" className="button" onClick={onCancel}>
        Cancelar
      </button>
    </form>
  );
}
