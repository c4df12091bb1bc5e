import { lazy, Suspense } from 'react';
import type { Credentials } from '../api/sign-in-client.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';

export type { Credentials };

export interface LoginFormProps {
  /** Resolves when signed in; rejects with the Spanish message to show under the form. */
  onSignIn: (credentials: Credentials) => Promise<void>;
  /** A message from outside the form, e.g. the account was turned away after signing in. */
  externalError?: string | null;
}

// Auth UI and its styling library load with /login only, never with the files screen.
const SupabaseSignIn = lazy(async () => ({ default: (await import('./supabase-sign-in.tsx')).SupabaseSignIn }));

export function LoginForm(props: LoginFormProps) {
  return (
    <Suspense fallback={<Spinner label="Cargando el formulario…" />}>
      <SupabaseSignIn {...props} />
    </Suspense>
  );
}
