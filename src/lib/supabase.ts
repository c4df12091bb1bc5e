import { AuthClient } from '@supabase/auth-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { RealtimeClient } from '@supabase/realtime-js';
import type { StorageClient } from '@supabase/storage-js';
import type { FunctionsClient } from '@supabase/functions-js';
import { env } from '../config/env.ts';
import type { Database } from '../types/database.ts';

/**
 * The app's one Supabase client, put together from the supabase-js packages instead of `createClient`, whose
 * constructor builds Realtime, Storage and Functions clients up front: those are a quarter of what the files
 * screen would download before its first paint. Auth and PostgREST, which every screen needs at once, are
 * built here the way supabase-js builds them (same session storage key, apikey and bearer headers); Realtime,
 * Storage and Functions load on first use through `realtime()`, `storage()` and `functions()`.
 */

const supabaseKey = env.VITE_SUPABASE_ANON_KEY;
const baseUrl = new URL(env.VITE_SUPABASE_URL.endsWith('/') ? env.VITE_SUPABASE_URL : `${env.VITE_SUPABASE_URL}/`);
const serviceUrl = (path: string) => new URL(path, baseUrl).href;
const headers = { 'X-Client-Info': 'mediateca-web (supabase-js packages)' };

const auth = new AuthClient({
  url: serviceUrl('auth/v1'),
  headers: { Authorization: `Bearer ${supabaseKey}`, apikey: supabaseKey, ...headers },
  // supabase-js's key, so sessions saved before this client (and by the tests' helpers) are still found.
  storageKey: `sb-${baseUrl.hostname.split('.')[0]}-auth-token`,
  autoRefreshToken: true,
  persistSession: true,
  detectSessionInUrl: false,
  flowType: 'implicit',
});

/** The signed-in person's token, or the anon key when nobody is signed in (as supabase-js sends). */
async function accessToken(): Promise<string> {
  const { data } = await auth.getSession();
  return data.session?.access_token ?? supabaseKey;
}

/** fetch with the apikey and the caller's bearer token, unless the request sets its own. */
const fetchWithAuth: typeof fetch = async (input, init) => {
  const requestHeaders = new Headers(init?.headers);
  if (!requestHeaders.has('apikey')) requestHeaders.set('apikey', supabaseKey);
  if (!requestHeaders.has('Authorization')) requestHeaders.set('Authorization', `Bearer ${await accessToken()}`);
  return fetch(input, { ...init, headers: requestHeaders });
};

const rest = new PostgrestClient<Database>(serviceUrl('rest/v1'), { headers, schema: 'public', fetch: fetchWithAuth });

export const supabase = {
  auth,
  from: rest.from.bind(rest),
  rpc: rest.rpc.bind(rest),
};

/** Loads once, on the first call; a failed load (a network error) is retried on the next call. */
function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/**
 * The Realtime client, which follows the session as supabase-js's does: it starts with the signed-in
 * person's token, a new or refreshed token is pushed to the joined channels, and signing out falls back to
 * the anon key.
 */
export const realtime = onFirstUse(async (): Promise<RealtimeClient> => {
  const { RealtimeClient } = await import('@supabase/realtime-js');
  const realtimeUrl = new URL('realtime/v1', baseUrl);
  realtimeUrl.protocol = realtimeUrl.protocol.replace('http', 'ws');
  const client = new RealtimeClient(realtimeUrl.href, {
    headers,
    accessToken,
    fetch: fetchWithAuth,
    params: { apikey: supabaseKey },
  });
  let lastToken: string | undefined;
  auth.onAuthStateChange((event, session) => {
    if ((event === 'TOKEN_REFRESHED' || event === 'SIGNED_IN') && session && session.access_token !== lastToken) {
      lastToken = session.access_token;
      void client.setAuth(session.access_token);
    } else if (event === 'SIGNED_OUT') {
      lastToken = undefined;
      void client.setAuth();
    }
  });
  // supabase-js's client has seen the sign-in by now and set its token: do the same before the first
  // channel is created, or that channel would join with the anon key (and RLS would hide every change).
  const { data } = await auth.getSession();
  if (data.session && data.session.access_token !== lastToken) {
    lastToken = data.session.access_token;
    await client.setAuth(lastToken);
  }
  return client;
});

export const storage = onFirstUse(async (): Promise<StorageClient> => {
  const { StorageClient } = await import('@supabase/storage-js');
  return new StorageClient(serviceUrl('storage/v1'), headers, fetchWithAuth);
});

export const functions = onFirstUse(async (): Promise<FunctionsClient> => {
  const { FunctionsClient } = await import('@supabase/functions-js');
  return new FunctionsClient(serviceUrl('functions/v1'), { headers, customFetch: fetchWithAuth });
});
