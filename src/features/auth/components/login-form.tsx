import { memo, useEffect, useRef, useState, type FormEvent } from 'react';
import type { SupabaseClient } from '@supabase/supabase-js';
import { Auth } from '@supabase/auth-ui-react';
import { REQUIRED_FIELDS_MESSAGE, signInFailureMessage } from '../../../lib/auth/messages.ts';
import { AUTH_UI_MESSAGE_CLASS, authAppearance, authLocalization } from '../lib/auth-ui-appearance.ts';

export interface LoginFormProps {
  /** The client Auth UI signs in with: the app's own. */
  supabaseClient: SupabaseClient;
  /** Called as a complete sign-in is sent, e.g. to forget why the previous account was turned away. */
  onAttempt?: () => void;
  /** A message from outside the form, e.g. the account was turned away after signing in. */
  externalError?: string | null;
}

/**
 * Auth UI re-creates its form whenever it re-renders (it defines a component inside its render), which
 * would empty the fields as soon as the screen re-renders: it renders once, with props that never change.
 */
const SignInView = memo(function SignInView({ supabaseClient }: { supabaseClient: SupabaseClient }) {
  return (
    <Auth
      supabaseClient={supabaseClient}
      view="sign_in"
      providers={[]}
      showLinks={false}
      magicLink={false}
      appearance={authAppearance}
      localization={authLocalization}
    />
  );
});

const filled = (form: HTMLFormElement, name: string) => {
  const field = form.elements.namedItem(name);
  return field instanceof HTMLInputElement && field.value.trim() !== '';
};

/**
 * Sign-in with Supabase Auth UI, as its documentation shows: it draws the fields and the button, signs in
 * with the app's client and keeps the button disabled, reading 'Entrando…', until the answer arrives. The
 * rest of the sign-in behaviour is more than Auth UI's props offer, so it is added around it:
 * - every field is required: an incomplete form is stopped before Auth UI sends it (Auth UI would send it);
 * - a failure is said in Spanish under the form and announced to screen readers: Auth UI shows Auth's
 *   English message in a span no screen reader announces, so that span (marked through `appearance`) is
 *   hidden and its text is said in Spanish in the form's alert instead;
 * - why a signed-in account was turned away comes from the app's auth state (`externalError`).
 * After a successful sign-in the app's auth state takes over (role check, then the redirect).
 */
export function LoginForm({ supabaseClient, onAttempt, externalError }: LoginFormProps) {
  const [error, setError] = useState<string | null>(null);
  const authUi = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const root = authUi.current;
    if (!root) return;
    // Auth UI removes its failure text as an attempt starts and shows the new one when it fails: each
    // appearance of a text is one failed attempt.
    let previous: string | undefined;
    const observer = new MutationObserver(() => {
      const shown = root.querySelector(`.${AUTH_UI_MESSAGE_CLASS}`)?.textContent?.trim() || undefined;
      if (shown && shown !== previous) setError(signInFailureMessage(shown));
      previous = shown;
    });
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);

  // Runs before Auth UI's own submit handler (capture phase); stopping the event there keeps it unsent.
  const checkRequired = (event: FormEvent<HTMLDivElement>) => {
    const form = event.target as HTMLFormElement;
    if (!filled(form, 'email') || !filled(form, 'password')) {
      event.preventDefault();
      event.stopPropagation();
      setError(REQUIRED_FIELDS_MESSAGE);
      return;
    }
    setError(null);
    onAttempt?.();
  };

  const message = error ?? externalError ?? null;
  return (
    <div className="login-form" onSubmitCapture={checkRequired}>
      <div ref={authUi}>
        <SignInView supabaseClient={supabaseClient} />
      </div>
      <p id="login-error" className="form-error" role="alert" aria-live="assertive">
        {message}
      </p>
    </div>
  );
}
