import { memo, useEffect, useState } from 'react';
import { Auth } from '@supabase/auth-ui-react';
import { REQUIRED_FIELDS_MESSAGE } from '../../../lib/auth/messages.ts';
import { SIGN_IN_REQUEST, signInClient, type SignInRequest } from '../api/sign-in-client.ts';
import { authAppearance, authLocalization } from '../lib/auth-ui-appearance.ts';
import type { LoginFormProps } from './login-form.tsx';

/**
 * Auth UI re-creates its form whenever it re-renders (it defines a component inside its render), which
 * would empty the fields as soon as the screen re-renders: it gets one client for its whole life.
 */
const SignInView = memo(function SignInView({ client }: { client: ReturnType<typeof signInClient>['client'] }) {
  return (
    <Auth
      supabaseClient={client}
      view="sign_in"
      providers={[]}
      showLinks={false}
      magicLink={false}
      appearance={authAppearance}
      localization={authLocalization}
    />
  );
});

/**
 * Sign-in with Supabase Auth UI: Auth UI draws the fields and the button (disabled, 'Entrando…',
 * while signing in); the product's rules stay ours: every field required, and the reason a sign-in failed or
 * an account was turned away said in Spanish under the form, announced to screen readers.
 */
export function SupabaseSignIn({ onSignIn, externalError }: LoginFormProps) {
  const [error, setError] = useState<string | null>(null);
  // One client for the form's whole life; each attempt is handled with the `onSignIn` of the moment (the
  // screen passes a new one on every render, and one happens as the sign-in starts).
  const [{ client, requests }] = useState(signInClient);
  useEffect(() => {
    const handle = async (event: Event) => {
      const { credentials, done } = (event as SignInRequest).detail;
      const email = credentials.email.trim();
      if (!email || !credentials.password) {
        setError(REQUIRED_FIELDS_MESSAGE);
      } else {
        setError(null);
        try {
          await onSignIn({ email, password: credentials.password });
        } catch (failure) {
          setError((failure as Error).message);
        }
      }
      done();
    };
    requests.addEventListener(SIGN_IN_REQUEST, handle);
    return () => requests.removeEventListener(SIGN_IN_REQUEST, handle);
  }, [requests, onSignIn]);
  const message = error ?? externalError ?? null;
  return (
    <div className="login-form">
      <SignInView client={client} />
      <p id="login-error" className="form-error" role="alert" aria-live="assertive">
        {message}
      </p>
    </div>
  );
}
