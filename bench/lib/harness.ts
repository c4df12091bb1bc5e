import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { startStack, type RunningStack } from '../../stack/src/stack.ts';
import { seedAccounts } from '../../tests/helpers/seed.ts';

/** An ephemeral, seeded stack for one benchmark, stopped even when the benchmark fails. */
export async function withStack<T>(work: (stack: RunningStack) => Promise<T>): Promise<T> {
  const stack = await startStack({ ephemeral: true, seed: true, log: () => {} });
  try {
    return await work(stack);
  } finally {
    await stack.stop();
  }
}

export function clientFor(stack: RunningStack, key = stack.anonKey): SupabaseClient {
  return createClient(stack.apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

export async function signedInAdmin(stack: RunningStack): Promise<{ client: SupabaseClient; token: string }> {
  const client = clientFor(stack);
  const { data, error } = await client.auth.signInWithPassword({
    email: seedAccounts.ADMIN.email,
    password: seedAccounts.ADMIN.password,
  });
  if (error) throw error;
  return { client, token: data.session.access_token };
}

/** Milliseconds of each of `runs` sequential calls, after a few untimed warm-up calls. */
export async function timeRuns(runs: number, call: () => Promise<unknown>, warmUp = 3): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples;
}

export const progress = (name: string, message: string) => console.log(`  [${name}] ${message}`);
