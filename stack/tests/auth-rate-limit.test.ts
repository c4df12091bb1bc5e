import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { clientFor } from '../../tests/helpers/clients.ts';
import { seedAccounts } from '../../tests/helpers/seed.ts';
import type { RunningStack } from '../src/stack.ts';
import { startOwnStack } from '../../tests/helpers/own-stack.ts';
import { spanishError } from '../../src/lib/errors.ts';

/**
 * Auth's request limits as GoTrue applies them: `[auth.rate_limit]` per 5 minutes with a burst of
 * 30, keyed by the first X-Forwarded-For value as hosted Supabase's edge sets it; a request without the header
 * is not limited, as under `supabase start` (whose GoTrue has no rate-limit header). Its own stack, so that
 * the buckets it empties are not shared.
 */
let stack: RunningStack;

beforeAll(async () => {
  stack = await startOwnStack({ seed: true, jobWorker: false });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.apiUrl}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** Refreshes with a made-up token are answered at once (no bcrypt): 30 land well inside one refill. */
const refresh = (attempt: number, headers: Record<string, string> = {}) =>
  post('/token?grant_type=refresh_token', { refresh_token: `made-up-${attempt}` }, headers);

/** A client whose every request says it comes from `address`, as behind hosted Supabase's edge. */
const clientFrom = (address: string) =>
  createClient(stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    global: { headers: { 'X-Forwarded-For': address } },
  });

describe('per-client limits keyed by X-Forwarded-For', () => {
  it('refuses the 31st /token request from one address with 429 over_request_rate_limit, and only that address', async () => {
    for (let attempt = 1; attempt <= 30; attempt += 1) {
      // Proxies append: GoTrue keys on the first value, the client's.
      expect((await refresh(attempt, { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' })).status).toBe(400);
    }
    const refused = await post(
      '/token?grant_type=password',
      { email: seedAccounts.UPLOADER.email, password: seedAccounts.UPLOADER.password },
      { 'x-forwarded-for': '203.0.113.7' },
    );
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    });
    expect((await refresh(31, { 'x-forwarded-for': '203.0.113.8' })).status).toBe(400);
    expect((await refresh(32)).status).toBe(400);
  });

  it('reaches supabase-js as an AuthApiError the app shows in Spanish', async () => {
    const supabase = clientFrom('198.51.100.4');
    const credentials = { email: seedAccounts.UPLOADER.email, password: seedAccounts.UPLOADER.password };
    const attempts = await Promise.all(Array.from({ length: 35 }, () => supabase.auth.signInWithPassword(credentials)));
    const limited = attempts.map((attempt) => attempt.error).filter((error) => error?.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]).toMatchObject({ code: 'over_request_rate_limit' });
    expect(spanishError(limited[0])).toBe('Demasiados intentos. Espera un momento e inténtalo de nuevo.');
  });

  it('does not limit requests without the header, as `supabase start` (the official suites sign in from 127.0.0.1 hundreds of times)', async () => {
    const supabase = clientFor(stack.apiUrl, stack.anonKey);
    const credentials = { email: seedAccounts.UPLOADER.email, password: seedAccounts.UPLOADER.password };
    const attempts = await Promise.all(Array.from({ length: 40 }, () => supabase.auth.signInWithPassword(credentials)));
    expect(attempts.map((attempt) => attempt.error?.status ?? 200)).toEqual(Array(40).fill(200));
    for (let attempt = 1; attempt <= 40; attempt += 1) expect((await refresh(attempt)).status).toBe(400);
  });
});

describe('e-mail request and verification limits', () => {
  it('/recover, /otp and /resend share one bucket (sign_in_sign_ups): the 31st request gets 429', async () => {
    const from = { 'x-forwarded-for': '192.0.2.10' };
    // Unknown addresses: answered at once with {} (recover, resend) or otp_disabled, and nothing is mailed.
    for (let attempt = 1; attempt <= 30; attempt += 1) {
      const address = `nadie-${attempt}@hotel.example`;
      const response =
        attempt % 3 === 0
          ? await post('/otp', { email: address, create_user: false }, from)
          : attempt % 3 === 1
            ? await post('/recover', { email: address }, from)
            : await post('/resend', { type: 'signup', email: address }, from);
      expect(response.status).not.toBe(429);
    }
    const refused = await post('/recover', { email: 'nadie-31@hotel.example' }, from);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error_code: 'over_request_rate_limit' });
  });

  it('/verify has its own bucket (token_verifications)', async () => {
    const from = { 'x-forwarded-for': '192.0.2.11' };
    for (let attempt = 1; attempt <= 30; attempt += 1) {
      const response = await post('/verify', { type: 'recovery', token_hash: `inventado-${attempt}` }, from);
      expect(response.status).toBe(403);
    }
    const refused = await post('/verify', { type: 'recovery', token_hash: 'inventado-31' }, from);
    expect(refused.status).toBe(429);
  });
});
