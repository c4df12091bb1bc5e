import type { SignInWithPasswordCredentials, SupabaseClient } from '@supabase/supabase-js';
import { supabase } from '../../../lib/supabase.ts';

/** Email and password as typed in the sign-in form. */
export interface Credentials {
  email: string;
  password: string;
}

/** Dispatched on the client's `requests` when Auth UI submits; `done` ends Auth UI's busy state. */
export type SignInRequest = CustomEvent<{ credentials: Credentials; done: () => void }>;
export const SIGN_IN_REQUEST = 'sign-in-request';

/**
 * The client handed to Supabase Auth UI. Auth UI calls `auth.signInWithPassword` itself and shows the
 * server's English message in a span no screen reader announces; this client hands the attempt to the
 * screen instead (a `SIGN_IN_REQUEST` event on `requests`), which validates, signs in and says what went
 * wrong in Spanish, and tells Auth UI only when the attempt is over. Everything else is the app's auth client.
 */
export function signInClient(): { client: SupabaseClient; requests: EventTarget } {
  const requests = new EventTarget();
  const signInWithPassword = (credentials: SignInWithPasswordCredentials) =>
    new Promise<{ data: { user: null; session: null }; error: null }>((resolve) => {
      const detail = {
        credentials: { email: 'email' in credentials ? credentials.email : '', password: credentials.password },
        done: () => resolve({ data: { user: null, session: null }, error: null }),
      };
      requests.dispatchEvent(new CustomEvent(SIGN_IN_REQUEST, { detail }));
    });
  const auth = new Proxy(supabase.auth, {
    get: (target, property, receiver) =>
      property === 'signInWithPassword' ? signInWithPassword : Reflect.get(target, property, receiver),
  });
  // Auth UI reads nothing but `supabaseClient.auth`. The app's client is not a supabase-js SupabaseClient (see
  // src/lib/supabase.ts: that class would put Realtime in the initial JS), so the auth part is handed over as one.
  const client = { auth } as unknown as SupabaseClient;
  return { client, requests };
}
