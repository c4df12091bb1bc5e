import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { startStack, type RunningStack, type StackOptions } from '@mediateca/stack';
import { seedAccounts } from '../../tests/helpers/seed.ts';

/** How many of the stack's last log lines a failed benchmark prints. */
export const LOG_LINES_KEPT = 200;

/**
 * An ephemeral, seeded stack for one benchmark, stopped even when the benchmark fails. Its log is kept quiet,
 * but the last lines are printed when the benchmark fails: a 3M load once ended with Postgres closing the
 * connection and nothing to say why. `options` adds to the stack's (function secrets, say).
 */
export async function withStack<T>(
  work: (stack: RunningStack) => Promise<T>,
  options: Partial<StackOptions> = {},
): Promise<T> {
  const recent: string[] = [];
  const log = (line: string) => {
    recent.push(line);
    if (recent.length > LOG_LINES_KEPT) recent.shift();
  };
  const stack = await startStack({ ...options, ephemeral: true, seed: true, log });
  try {
    return await work(stack);
  } catch (error) {
    console.error(`  the stack's last ${recent.length} log lines:\n${recent.join('\n')}`);
    throw error;
  } finally {
    await stack.stop();
  }
}

export function clientFor(stack: Pick<RunningStack, 'apiUrl' | 'anonKey'>, key = stack.anonKey): SupabaseClient {
  return createClient(stack.apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

export async function signedInAdmin(
  stack: Pick<RunningStack, 'apiUrl' | 'anonKey'>,
): Promise<{ client: SupabaseClient; token: string }> {
  const client = clientFor(stack);
  const { data, error } = await client.auth.signInWithPassword({
    email: seedAccounts.ADMIN.email,
    password: seedAccounts.ADMIN.password,
  });
  if (error) throw error;
  return { client, token: data.session.access_token };
}

/**
 * Milliseconds of each of `runs` sequential calls, after a few untimed warm-up calls; `settle`, when given,
 * runs untimed before each call.
 */
export async function timeRuns(
  runs: number,
  call: () => Promise<unknown>,
  warmUp = 3,
  settle?: () => Promise<void>,
): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) {
    await settle?.();
    await call();
  }
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    await settle?.();
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples;
}

export const progress = (name: string, message: string) => console.log(`  [${name}] ${message}`);
