import type { Credentials } from '../api/sign-in-client.ts';

export type { Credentials };

export interface LoginFormProps {
  /** Resolves when signed in; rejects with the Spanish message to show under the form. */
  onSignIn: (credentials: Credentials) => Promise<void>;
  /** A message from outside the form, e.g. the account was turned away after signing in. */
  externalError?: string | null;
}

// Auth UI and its styling library load with /login only, never with the files screen: the router loads the
// sign-in route (and this form with it) as a lazy route before showing it. Not a React.lazy of its own: a
// Suspense fallback shown first holds the form back for React's 300 ms reveal throttle, time every person
// spent looking at a spinner before they could type.
export { SupabaseSignIn as LoginForm } from './supabase-sign-in.tsx';
