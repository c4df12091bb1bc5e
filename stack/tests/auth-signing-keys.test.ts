import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT, decodeProtectedHeader, importJWK } from 'jose';
import { PROJECT_ROOT, type RunningStack } from '../src/stack.ts';
import { startOwnStack } from '../../tests/helpers/own-stack.ts';
import { clientFor } from '../../tests/helpers/clients.ts';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

/**
 * Asymmetric JWT signing keys: `[auth] signing_keys_path` as the CLI reads it. Auth signs user tokens
 * with the ES256 key (header `kid`), publishes its public half at /auth/v1/.well-known/jwks.json, and
 * `auth.getClaims()` verifies locally with it; PostgREST, Storage, Realtime and Functions accept those tokens
 * and the HS256 anon/service keys alike.
 */
let stack: RunningStack;
let project: string;
const kid = randomUUID();
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const privateJwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'ES256', key_ops: ['sign', 'verify'] };

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'signing-keys-project-'));
  await cp(path.join(PROJECT_ROOT, 'stack/tests/fixtures/signing-keys-project'), project, { recursive: true });
  await writeFile(path.join(project, 'supabase', 'signing_keys.json'), JSON.stringify([privateJwk]));
  stack = await startOwnStack({ supabaseDir: path.join(project, 'supabase'), jobWorker: false });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  if (project) await rm(project, { recursive: true, force: true });
});

/** A signed-in user on a client whose requests are recorded. */
async function signedIn(): Promise<{ supabase: SupabaseClient; userId: string; token: string; calls: string[] }> {
  const email = `keys-${randomUUID()}@test.local`;
  const admin = clientFor(stack.apiUrl, stack.serviceRoleKey);
  const created = await admin.auth.admin.createUser({ email, password: 'secreto-1', email_confirm: true });
  if (created.error) throw created.error;
  const calls: string[] = [];
  const supabase = createClient(stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    global: {
      fetch: (input, init) => {
        calls.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
        return fetch(input, init);
      },
    },
  });
  const { data, error } = await supabase.auth.signInWithPassword({ email, password: 'secreto-1' });
  if (error) throw error;
  return { supabase, userId: created.data.user!.id, token: data.session!.access_token, calls };
}

describe('signing_keys_path', () => {
  it('publishes the public key at /auth/v1/.well-known/jwks.json, without its private part', async () => {
    const response = await fetch(`${stack.apiUrl}/auth/v1/.well-known/jwks.json`, {
      headers: { apikey: stack.anonKey },
    });
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: Array<Record<string, unknown>> };
    expect(keys).toEqual([
      {
        kty: 'EC',
        crv: 'P-256',
        x: privateJwk.x,
        y: privateJwk.y,
        kid,
        alg: 'ES256',
        use: 'sig',
        key_ops: ['verify'],
      },
    ]);
  });

  it('signs user tokens ES256 with the key id, and getClaims() verifies them without asking /user', async () => {
    const { supabase, userId, token, calls } = await signedIn();
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid, typ: 'JWT' });
    calls.length = 0;
    const { data, error } = await supabase.auth.getClaims();
    expect(error).toBeNull();
    expect(data?.claims).toMatchObject({ sub: userId, role: 'authenticated', aal: 'aal1' });
    expect(calls).toEqual(['/auth/v1/.well-known/jwks.json']);
    // The user endpoints take the token too.
    expect((await supabase.auth.getUser()).data.user?.id).toBe(userId);
  });

  it('lets PostgREST, Storage, Realtime and Functions accept the ES256 token', async () => {
    const { supabase, userId } = await signedIn();
    const inserted = await supabase.from('notes').insert({ body: 'firmado con ES256' }).select().single();
    expect(inserted.error).toBeNull();
    expect(inserted.data).toMatchObject({ owner: userId, body: 'firmado con ES256' });

    const buckets = await supabase.storage.listBuckets();
    expect(buckets.error).toBeNull();

    const status = await new Promise<string>((resolve) => {
      const channel = supabase.channel(`notes-${randomUUID()}`);
      channel.subscribe((state, error) => resolve(error ? `${state}: ${error.message}` : state));
    });
    expect(status).toBe('SUBSCRIBED');
    await supabase.removeAllChannels();

    // No function is deployed: a verified token reaches the router (404), a refused one stops at 401.
    const invoked = await supabase.functions.invoke('nadie');
    expect(invoked.error).toBeInstanceOf(FunctionsHttpError);
    expect((invoked.error as FunctionsHttpError).context.status).toBe(404);
  });

  it('still accepts the HS256 anon and service-role keys, and refuses a token signed by another key', async () => {
    const anon = clientFor(stack.apiUrl, stack.anonKey);
    const read = await anon.from('notes').select('id');
    expect(read).toMatchObject({ error: null, data: [] });
    const admin = clientFor(stack.apiUrl, stack.serviceRoleKey);
    expect((await admin.auth.admin.listUsers()).error).toBeNull();

    const { privateKey: other } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = await new SignJWT({ sub: randomUUID(), role: 'authenticated', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setExpirationTime('1h')
      .sign(await importJWK({ ...other.export({ format: 'jwk' }), alg: 'ES256' }, 'ES256'));
    const rest = await fetch(`${stack.apiUrl}/rest/v1/notes`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${forged}` },
    });
    expect(rest.status).toBe(401);
    const user = await fetch(`${stack.apiUrl}/auth/v1/user`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${forged}` },
    });
    expect(user.status).toBe(403);
    const fn = await fetch(`${stack.apiUrl}/functions/v1/nadie`, {
      method: 'POST',
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(fn.status).toBe(401);
  });
});
