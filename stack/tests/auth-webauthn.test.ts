import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { GoTrueClient } from '@supabase/auth-js';
import WebSocket from 'ws';
import type { StackInfo } from '../../tests/helpers/global-stack.ts';
import { featuresStack } from './helpers/features-stack.ts';
import { SoftwareAuthenticator } from './helpers/software-authenticator.ts';
import { signedInUser } from '../../tests/helpers/clients.ts';

/**
 * WebAuthn second factors: enroll, challenge ("create" then "request"), verify and unenroll through
 * supabase-js as GoTrue answers them, with `[auth.mfa.web_authn]` and `[auth.webauthn]` from config.toml; the
 * attestation and assertion come from a software authenticator and are checked by a real WebAuthn library.
 */
const RP = { rpId: 'localhost', rpOrigins: ['http://localhost:5173'] };
let stack: StackInfo;

beforeAll(async () => {
  stack = await featuresStack();
}, 180_000);

const newClient = () =>
  createClient(stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });

async function signedIn(email = `llave-${randomUUID()}@test.local`): Promise<SupabaseClient> {
  const supabase = newClient();
  const signUp = await supabase.auth.signUp({ email, password: 'secreto-1' });
  if (signUp.error && signUp.error.code !== 'user_already_exists') throw signUp.error;
  const { error } = await supabase.auth.signInWithPassword({ email, password: 'secreto-1' });
  if (error) throw error;
  return supabase;
}

/** Enrolls a WebAuthn factor and verifies it with `authenticator`, as auth.mfa.webauthn.register does. */
async function register(supabase: SupabaseClient, authenticator: SoftwareAuthenticator) {
  const enrolled = await supabase.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'Llave del hotel' });
  if (enrolled.error) throw enrolled.error;
  const factorId = enrolled.data.id;
  const challenge = await supabase.auth.mfa.challenge({ factorId, webauthn: RP });
  if (challenge.error) throw challenge.error;
  if (challenge.data.type !== 'webauthn' || challenge.data.webauthn.type !== 'create') {
    throw new Error('expected a "create" challenge');
  }
  const credential = authenticator.create(challenge.data.webauthn.credential_options.publicKey as never);
  const verified = await supabase.auth.mfa.verify({
    factorId,
    challengeId: challenge.data.id,
    webauthn: { type: 'create', ...RP, credential_response: credential as never },
  });
  return { factorId, enrolled: enrolled.data, verified };
}

describe('WebAuthn factors', () => {
  it('enrolls an unverified factor, then verifies it with an attestation: the session reaches aal2', async () => {
    const supabase = await signedIn();
    const authenticator = new SoftwareAuthenticator('http://localhost:5173');
    const { factorId, enrolled, verified } = await register(supabase, authenticator);
    expect(enrolled).toEqual({ id: factorId, type: 'webauthn', friendly_name: 'Llave del hotel' });
    expect(verified.error).toBeNull();
    const claims = (await supabase.auth.getClaims()).data?.claims;
    expect(claims?.aal).toBe('aal2');
    expect((claims?.amr as Array<{ method: string }>).map((entry) => entry.method)).toContain('mfa/webauthn');
    const factors = await supabase.auth.mfa.listFactors();
    expect(factors.data?.all).toEqual([
      expect.objectContaining({ id: factorId, factor_type: 'webauthn', status: 'verified' }),
    ]);
  });

  it('signs in again with an assertion of the same authenticator, and refuses one from another', async () => {
    const email = `llave-${randomUUID()}@test.local`;
    const authenticator = new SoftwareAuthenticator('http://localhost:5173');
    const { factorId } = await register(await signedIn(email), authenticator);

    const later = await signedIn(email);
    expect((await later.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal2',
    });
    const assertWith = async (device: SoftwareAuthenticator) => {
      const challenge = await later.auth.mfa.challenge({ factorId, webauthn: RP });
      if (challenge.error || challenge.data.type !== 'webauthn') throw challenge.error ?? new Error('no challenge');
      expect(challenge.data.webauthn.type).toBe('request');
      const assertion = device.get(challenge.data.webauthn.credential_options.publicKey as never);
      return later.auth.mfa.verify({
        factorId,
        challengeId: challenge.data.id,
        webauthn: { type: 'request', ...RP, credential_response: assertion as never },
      });
    };
    const stranger = await assertWith(new SoftwareAuthenticator('http://localhost:5173'));
    expect(stranger.error?.status).toBe(500);
    expect((await later.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');

    const verified = await assertWith(authenticator);
    expect(verified.error).toBeNull();
    expect((await later.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');

    // aal2 may unenroll the verified factor; the session is aal1 again once it refreshes.
    expect((await later.auth.mfa.unenroll({ factorId })).error).toBeNull();
    expect((await later.auth.mfa.listFactors()).data?.all).toEqual([]);
    expect((await later.auth.refreshSession()).error).toBeNull();
    expect((await later.auth.getClaims()).data?.claims.aal).toBe('aal1');
  });

  it('refuses an attestation made for another origin', async () => {
    const supabase = await signedIn();
    const { verified } = await register(supabase, new SoftwareAuthenticator('http://evil.example'));
    expect(verified.error?.status).toBe(500);
    expect((await supabase.auth.mfa.listFactors()).data?.all).toEqual([
      expect.objectContaining({ factor_type: 'webauthn', status: 'unverified' }),
    ]);
  });

  it('answers MFA calls without a session with 401 "requires a valid Bearer token", as GoTrue behind Kong', async () => {
    // auth-js alone sends only the apikey; the CLI's gateway copies it into Authorization without "Bearer ".
    const auth = new GoTrueClient({
      url: `${stack.apiUrl}/auth/v1`,
      headers: { apikey: stack.anonKey },
      autoRefreshToken: false,
      persistSession: false,
    });
    const calls = [
      auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'x' }),
      auth.mfa.challenge({ factorId: randomUUID(), webauthn: RP }),
      auth.mfa.verify({ factorId: randomUUID(), challengeId: randomUUID(), code: '123456' }),
      auth.mfa.unenroll({ factorId: randomUUID() }),
    ];
    for (const { error } of await Promise.all(calls)) {
      expect(error).toMatchObject({ status: 401, code: 'no_authorization' });
      expect(error?.message).toBe('This endpoint requires a valid Bearer token');
    }
  });
});

describe('WebAuthn factors when config.toml leaves them off (this project)', () => {
  it('refuses to enroll with 422 mfa_webauthn_enroll_not_enabled', async () => {
    const { client } = await signedInUser();
    const { error } = await client.auth.mfa.enroll({ factorType: 'webauthn' });
    expect(error).toMatchObject({ status: 422, code: 'mfa_webauthn_enroll_not_enabled' });
  });
});
