import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionsHttpError, FunctionsRelayError, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { PROJECT_ROOT, type RunningStack } from '../src/stack.ts';
import { startOwnStack } from '../../tests/helpers/own-stack.ts';
import { clientFor } from '../../tests/helpers/clients.ts';

/** Edge functions run by real Deno through the gateway, invoked with supabase.functions.invoke. */

let stack: RunningStack;
let anon: SupabaseClient;

beforeAll(async () => {
  stack = await startOwnStack({ supabaseDir: path.join(PROJECT_ROOT, 'stack/tests/fixtures/functions-project') });
  anon = clientFor(stack.apiUrl, stack.anonKey);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('functions runtime', () => {
  it("gives a function the caller's identity from the JWT", async () => {
    const admin = clientFor(stack.apiUrl, stack.serviceRoleKey);
    const email = `fn-${crypto.randomUUID()}@test.local`;
    const created = await admin.auth.admin.createUser({ email, password: 'secreto-1', email_confirm: true });
    const user = clientFor(stack.apiUrl, stack.anonKey);
    await user.auth.signInWithPassword({ email, password: 'secreto-1' });
    const { data, error } = await user.functions.invoke('whoami', { body: { hola: 'mundo' } });
    expect(error).toBeNull();
    expect(data).toEqual({ userId: created.data.user!.id, echo: { hola: 'mundo' }, path: '/whoami' });
  }, 120_000);

  it('refuses a missing or invalid token when verify_jwt is on', async () => {
    const missing = await fetch(`${stack.apiUrl}/functions/v1/whoami`, { method: 'POST' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ msg: 'Error: Missing authorization header' });
    const invalid = await fetch(`${stack.apiUrl}/functions/v1/whoami`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-jwt' },
    });
    expect(invalid.status).toBe(401);
    expect(await invalid.json()).toEqual({ msg: 'Invalid JWT' });
  });

  it('answers a JWT signed with another secret as the current edge runtime: FunctionsHttpError, no relay error', async () => {
    // The retired deno-relay marked this with x-relay-error (FunctionsRelayError, 'Relay Error invoking the
    // Edge Function'); edge-runtime's main router answers 401 {"msg":"Invalid JWT"} instead.
    const forged = await new SignJWT({ role: 'anon' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('not-the-project-secret-but-32-chars-long'));
    const { error, response } = await clientFor(stack.apiUrl, forged).functions.invoke('whoami');
    expect(error).toBeInstanceOf(FunctionsHttpError);
    expect(error).not.toBeInstanceOf(FunctionsRelayError);
    expect(response?.headers.get('x-relay-error')).toBeNull();
    expect(await (error as FunctionsHttpError).context.json()).toEqual({ msg: 'Invalid JWT' });
  });

  it('serves `export default { fetch }` functions with verify_jwt off, with the Supabase env', async () => {
    const response = await fetch(`${stack.apiUrl}/functions/v1/public-echo`, { method: 'POST', body: 'eco' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('eco');
    expect(response.headers.get('x-has-secret')).toBe('true');
  });

  it('turns a throwing function into a 500 FunctionsHttpError and stays up', async () => {
    const { error } = await anon.functions.invoke('boom');
    expect(error).toBeInstanceOf(FunctionsHttpError);
    expect((error as FunctionsHttpError).context.status).toBe(500);
    const again = await fetch(`${stack.apiUrl}/functions/v1/public-echo`, { method: 'POST', body: 'sigo' });
    expect(await again.text()).toBe('sigo');
  });

  it('answers an unknown function with 404', async () => {
    const response = await fetch(`${stack.apiUrl}/functions/v1/nope`, {
      headers: { authorization: `Bearer ${stack.anonKey}` },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Function not found');
  });
});
