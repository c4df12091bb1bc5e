import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '@mediateca/stack';
import { clientFor } from '../helpers/clients.ts';
import { startOwnStack } from '../helpers/own-stack.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * An upstream that never answers does not hold a function's request until the runtime ends its worker: the
 * functions here reach Auth, PostgREST and Storage through a server that accepts connections and stays
 * silent (as a service stalled on a busy machine does), and every request still ends with the functions'
 * Spanish 504 within the outbound deadline, long before the runtime's own idle timeout would answer.
 */

const UPSTREAM_TIMEOUT_MS = 3_000;
/** Far past the deadline: without one, the runtime's 504 IDLE_TIMEOUT (English) is what would come. */
const IDLE_TIMEOUT_MS = 40_000;

let stack: RunningStack;
let silent: net.Server;
const held: net.Socket[] = [];
let adminToken: string;

beforeAll(async () => {
  silent = net.createServer((socket) => {
    // Accepts, reads whatever is sent, and never writes a byte back.
    held.push(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  stack = await startOwnStack({
    seed: true,
    jobWorker: false,
    functionSecrets: { SUPABASE_URL: silentUrl, UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS) },
    functionLimits: { idleTimeoutMs: IDLE_TIMEOUT_MS },
  });
  // Signing in goes to the stack itself; only what the functions call goes to the silent server.
  const anon = clientFor(stack.apiUrl, stack.anonKey);
  const signIn = await anon.auth.signInWithPassword({
    email: seedAccounts.ADMIN.email,
    password: seedAccounts.ADMIN.password,
  });
  if (signIn.error) throw signIn.error;
  adminToken = signIn.data.session.access_token;
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
  await stack?.stop();
});

const call = async (name: string, body: unknown, token: string) => {
  const started = Date.now();
  const response = await fetch(`${stack.apiUrl}/functions/v1/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, apikey: stack.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown, ms: Date.now() - started };
};

const TIMED_OUT = {
  code: 'UPSTREAM_TIMEOUT',
  message: 'El servidor tardó demasiado en responder. Inténtalo de nuevo en unos segundos.',
};

describe('a function whose upstream never answers', () => {
  it('answers staff-users with a Spanish 504 within its deadline, not when the runtime gives up', async () => {
    const answer = await call('staff-users', { action: 'list' }, adminToken);
    expect(answer).toMatchObject({ status: 504, body: TIMED_OUT });
    expect(answer.ms).toBeGreaterThanOrEqual(UPSTREAM_TIMEOUT_MS - 500);
    expect(answer.ms).toBeLessThan(UPSTREAM_TIMEOUT_MS + 10_000);
  });

  it('answers run-jobs the same way (its database calls time out too)', async () => {
    const answer = await call('run-jobs', {}, stack.serviceRoleKey);
    expect(answer).toMatchObject({ status: 504, body: TIMED_OUT });
    expect(answer.ms).toBeLessThan(UPSTREAM_TIMEOUT_MS + 10_000);
  });
});
