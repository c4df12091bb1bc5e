import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { inject } from 'vitest';
import WebSocket from 'ws';
import pg from 'pg';
import { seedAccounts, type SeedRole } from './seed.ts';

export function stackInfo() {
  return inject('stack');
}

/**
 * The official client as an app would create it. Node 20 has no global WebSocket, so realtime gets `ws`;
 * sessions live in memory so clients in one test never share a session.
 */
export function client(key: 'anon' | 'service_role' = 'anon', accessToken?: string): SupabaseClient {
  const stack = stackInfo();
  return clientFor(stack.apiUrl, key === 'anon' ? stack.anonKey : stack.serviceRoleKey, accessToken);
}

/** The same, for a stack a test started itself. */
export function clientFor(apiUrl: string, apiKey: string, accessToken?: string): SupabaseClient {
  return createClient(apiUrl, apiKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    global: accessToken ? { headers: { Authorization: `Bearer ${accessToken}` } } : {},
  });
}

/** A fresh user created through the admin API, signed in on its own client. */
export async function signedInUser(options: { email?: string; password?: string } = {}) {
  const email = options.email ?? `user-${crypto.randomUUID()}@test.local`;
  const password = options.password ?? 'contraseña-segura-1';
  const admin = client('service_role');
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw created.error;
  const userClient = client('anon');
  const signIn = await userClient.auth.signInWithPassword({ email, password });
  if (signIn.error) throw signIn.error;
  return { client: userClient, user: created.data.user, session: signIn.data.session, email, password };
}

/**
 * The `postgres` login, as migrations, the SQL editor and psql use it on hosted Supabase: no superuser, and
 * policies on storage.objects or realtime.messages only as supautils allows it there.
 */
export async function postgresDb(): Promise<pg.Client> {
  const db = new pg.Client({ connectionString: stackInfo().dbUrl });
  await db.connect();
  return db;
}

/** A superuser connection for fixtures a test must arrange behind the API's back. */
export async function adminDb(): Promise<pg.Client> {
  const db = new pg.Client({ connectionString: stackInfo().adminDbUrl });
  await db.connect();
  return db;
}

/** A seed account signed in on its own client (the official client, as the app uses it). */
export async function signedInSeed(role: SeedRole) {
  const account = seedAccounts[role];
  const supabase = client('anon');
  const { error } = await supabase.auth.signInWithPassword({ email: account.email, password: account.password });
  if (error) throw error;
  return supabase;
}
