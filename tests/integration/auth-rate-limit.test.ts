import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { startStack, type RunningStack } from '../../stack/src/stack.ts';
import { spanishError } from '../../src/lib/errors.ts';

/**
 * Sign-in rate limits as GoTrue applies them (issue 24): `[auth.rate_limit] token_refresh` per 5 minutes per
 * address with a burst of 30, on a stack of its own (the shared test stacks turn the limits off).
 */
let stack: RunningStack;

beforeAll(async () => {
  stack = await startStack({ ephemeral: true, seed: true, jobWorker: false, log: () => {} });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

const signIn = (password: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: seedAccounts.UPLOADER.email, password }),
  });

describe('sign-in rate limit', () => {
  it('refuses the 31st /token request in a row with 429 over_request_rate_limit, whatever X-Forwarded-For claims', async () => {
    // Password sign-ins and refreshes share GoTrue's /token bucket. Refreshes with a made-up token are answered
    // at once (no bcrypt), so all 30 land well inside the 2 seconds the bucket takes to refill by one.
    for (let attempt = 1; attempt <= 30; attempt += 1) {
      const refresh = await fetch(`${stack.apiUrl}/auth/v1/token?grant_type=refresh_token`, {
        method: 'POST',
        headers: { apikey: stack.anonKey, 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.${attempt}` },
        body: JSON.stringify({ refresh_token: `made-up-${attempt}` }),
      });
      expect(refresh.status).toBe(400);
    }
    const refused = await signIn(seedAccounts.UPLOADER.password, { 'x-forwarded-for': '10.9.9.9' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    });
  });

  it('reaches supabase-js as an AuthApiError the app shows in Spanish', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 35 }, () =>
        clientFor(stack.apiUrl, stack.anonKey).auth.signInWithPassword({
          email: seedAccounts.UPLOADER.email,
          password: seedAccounts.UPLOADER.password,
        }),
      ),
    );
    const limited = attempts.map((attempt) => attempt.error).filter((error) => error?.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]).toMatchObject({ code: 'over_request_rate_limit' });
    expect(spanishError(limited[0])).toBe('Demasiados intentos. Espera un momento e inténtalo de nuevo.');
  });
});

describe('e-mail request and verification limits', () => {
  const post = (path: string, body: unknown) =>
    fetch(`${stack.apiUrl}/auth/v1${path}`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('/recover, /otp and /resend share one bucket (sign_in_sign_ups): the 31st request gets 429', async () => {
    // Unknown addresses: answered at once with {} (recover, resend) or otp_disabled, and nothing is mailed.
    for (let attempt = 1; attempt <= 30; attempt += 1) {
      const address = `nadie-${attempt}@hotel.example`;
      const response =
        attempt % 3 === 0
          ? await post('/otp', { email: address, create_user: false })
          : attempt % 3 === 1
            ? await post('/recover', { email: address })
            : await post('/resend', { type: 'signup', email: address });
      expect(response.status).not.toBe(429);
    }
    const refused = await post('/recover', { email: 'nadie-31@hotel.example' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error_code: 'over_request_rate_limit' });
  });

  it('/verify has its own bucket (token_verifications)', async () => {
    for (let attempt = 1; attempt <= 30; attempt += 1) {
      const response = await post('/verify', { type: 'recovery', token_hash: `inventado-${attempt}` });
      expect(response.status).toBe(403);
    }
    const refused = await post('/verify', { type: 'recovery', token_hash: 'inventado-31' });
    expect(refused.status).toBe(429);
  });
});
