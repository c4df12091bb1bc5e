import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormMessage, firstError } from '../../../components/ui/form-message.tsx';
import { useSignInCode } from '../api/verify-code.ts';
import { codeSchema, type CodeValues } from '../api/code-schema.ts';
import { accountErrorMessage } from '../api/account-errors.ts';
import { CodeField } from './code-field.tsx';
import '../account.css';

/**
 * The second step of signing in for an account with an authenticator app. Once the code is right the
 * session is aal2 and the usual role check lets the person in.
 */
export function MfaCodeStep({ factorId, onCancel }: { factorId: string; onCancel: () => void }) {
  const verify = useSignInCode();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CodeValues>({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } });
  const submit = handleSubmit(({ code }) => verify.mutate({ factorId, code }));
  const message =
    firstError(errors) ?? (verify.error ? accountErrorMessage(verify.error, 'No se pudo comprobar el código.') : null);
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
