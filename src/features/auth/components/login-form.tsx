import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { REQUIRED_FIELDS_MESSAGE } from '../../../lib/auth/messages.ts';

const credentialsSchema = z.object({
  email: z.string().trim().min(1, REQUIRED_FIELDS_MESSAGE),
  password: z.string().min(1, REQUIRED_FIELDS_MESSAGE),
});

export type Credentials = z.infer<typeof credentialsSchema>;

interface LoginFormProps {
  /** Resolves when signed in; rejects with the Spanish message to show under the form. */
  onSignIn: (credentials: Credentials) => Promise<void>;
  /** A message from outside the form, e.g. the account was turned away after signing in. */
  externalError?: string | null;
}

export function LoginForm({ onSignIn, externalError }: LoginFormProps) {
  const [submitError, setSubmitError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Credentials>({ resolver: zodResolver(credentialsSchema), defaultValues: { email: '', password: '' } });

  const submit = handleSubmit(async (credentials) => {
    setSubmitError(null);
    try {
      await onSignIn(credentials);
    } catch (error) {
      setSubmitError((error as Error).message);
    }
  });

  const message = errors.email || errors.password ? REQUIRED_FIELDS_MESSAGE : (submitError ?? externalError ?? null);
  return (
    <form className="login-form" onSubmit={submit} noValidate aria-describedby={message ? 'login-error' : undefined}>
      <label htmlFor="login-email">Correo electrónico</label>
      <input id="login-email" type="email" autoComplete="username" autoFocus {...register('email')} />
      <label htmlFor="login-password">Contraseña</label>
      <input id="login-password" type="password" autoComplete="current-password" {...register('password')} />
      <button type="submit" className="button button-primary" disabled={isSubmitting}>
        {isSubmitting ? 'Entrando…' : 'Entrar'}
      </button>
      <p id="login-error" className="form-error" role="alert" aria-live="assertive">
        {message}
      </p>
    </form>
  );
}
