import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { clientFor, progress, withStack } from './lib/harness.ts';

/**
 * Realtime: latency from commit to delivery (commit_timestamp → arrival) with 20 subscribers, each change
 * checked against RLS for each subscriber, at 10 changes/s; then the highest rate whose p95 stays within
 * 250 ms. Baseline: Postgres LISTEN/NOTIFY round trip at the same rate, measured in the same run.
 */

const SUBSCRIBERS = 20;
const TABLE = 'bench_events';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function insertAtRate(db: pg.Client, owner: string, perSecond: number, seconds: number) {
  const total = Math.round(perSecond * seconds);
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    await db.query(`insert into public.${TABLE} (owner, note) values ($1, $2)`, [owner, `n${i}`]);
    const wait = started + ((i + 1) * 1000) / perSecond - performance.now();
    if (wait > 0) await sleep(wait);
  }
}

export async function run(): Promise<BenchRow[]> {
  const seconds = isQuick() ? 5 : 15;
  return withStack(async (stack) => {
    const db = new pg.Client({ connectionString: stack.adminDbUrl });
    await db.connect();
    try {
      // Created as the app's migrations would be (role postgres), so the API roles get their usual grants.
      await db.query('set role postgres');
      await db.query(`
        create table public.${TABLE} (id bigint generated always as identity primary key, owner uuid not null, note text not null);
        alter table public.${TABLE} enable row level security;
        create policy "Owners read their events" on public.${TABLE} for select to authenticated using (owner = (select auth.uid()));
        alter publication supabase_realtime add table public.${TABLE};`);
      const service = clientFor(stack, stack.serviceRoleKey);
      const email = `bench-${crypto.randomUUID()}@bench.local`;
      const user = await service.auth.admin.createUser({ email, password: 'bench-password', email_confirm: true });
      const owner = user.data.user!.id;
      const latencies: number[] = [];
      const clients: SupabaseClient[] = [];
      progress('realtime', `subscribing ${SUBSCRIBERS} clients`);
      for (let i = 0; i < SUBSCRIBERS; i++) {
        const client = clientFor(stack);
        const session = await client.auth.signInWithPassword({ email, password: 'bench-password' });
        await client.realtime.setAuth(session.data.session!.access_token);
        await new Promise<void>((resolve, reject) => {
          client
            .channel(`bench-${i}`)
            .on('postgres_changes', { event: 'INSERT', schema: 'public', table: TABLE }, (payload) => {
              latencies.push(Date.now() - Date.parse(payload.commit_timestamp));
            })
            .subscribe((status) =>
              status === 'SUBSCRIBED' ? resolve() : status === 'CHANNEL_ERROR' ? reject(new Error(status)) : undefined,
            );
        });
        clients.push(client);
      }
      // Let the new table reach the running replication stream before measuring.
      for (let i = 0; i < 50 && latencies.length === 0; i++) {
        await db.query(`insert into public.${TABLE} (owner, note) values ($1, 'warm-up')`, [owner]);
        await sleep(200);
      }
      await sleep(500);

      const measure = async (rate: number, duration: number) => {
        latencies.length = 0;
        await insertAtRate(db, owner, rate, duration);
        await sleep(1000);
        return [...latencies];
      };
      progress('realtime', `10 changes/s for ${seconds} s`);
      const steady = await measure(10, seconds);

      let sustained = 0;
      for (const rate of [25, 50, 100, 200, 400]) {
        progress('realtime', `trying ${rate} changes/s`);
        const samples = await measure(rate, isQuick() ? 2 : 4);
        const expected = Math.round(rate * (isQuick() ? 2 : 4)) * SUBSCRIBERS;
        if (samples.length < expected * 0.99 || percentile(samples, 95) > 250) break;
        sustained = rate;
      }

      progress('realtime', 'LISTEN/NOTIFY baseline');
      const listener = new pg.Client({ connectionString: stack.adminDbUrl });
      await listener.connect();
      const notifyLatencies: number[] = [];
      listener.on('notification', (message) => notifyLatencies.push(Date.now() - Number(message.payload)));
      await listener.query('listen bench_channel');
      const notifyCount = 10 * seconds;
      const notifyStarted = performance.now();
      for (let i = 0; i < notifyCount; i++) {
        await db.query(`select pg_notify('bench_channel', $1)`, [String(Date.now())]);
        const wait = notifyStarted + ((i + 1) * 1000) / 10 - performance.now();
        if (wait > 0) await sleep(wait);
      }
      await sleep(500);
      await listener.end();
      for (const client of clients) await client.removeAllChannels();

      return [
        ...[50, 95].map((p) => ({
          metric: `realtime commit → delivery, ${SUBSCRIBERS} subscribers at 10/s, p${p}`,
          unit: 'ms',
          value: percentile(steady, p),
          baseline: percentile(notifyLatencies, p),
          baselineLabel: 'LISTEN/NOTIFY',
          goal: p === 95 ? 'p95 < 250 ms' : '—',
          higherIsBetter: false,
        })),
        {
          metric: `realtime changes/s sustained with p95 ≤ 250 ms (${SUBSCRIBERS} subscribers)`,
          unit: 'changes/s',
          value: sustained,
          baseline: null,
          baselineLabel: '',
          goal: '≥ 50/s',
          higherIsBetter: true,
        },
      ];
    } finally {
      await db.end();
    }
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('realtime', await run());
}
