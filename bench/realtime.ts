import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { clientFor, progress, withStack } from './lib/harness.ts';
import type { RunningStack } from '@mediateca/stack';

/**
 * Realtime: latency from commit to delivery (commit_timestamp → arrival in supabase-js) with 20
 * subscribers at 10 changes/s, each change checked against RLS for each subscriber; then the highest
 * rate whose p95 stays within 250 ms with every change delivered. Two audiences: 20 sockets of one user
 * (one shared RLS check per change) and 20 different users (20 checks per change, the worst case). The
 * RLS policy is a realistic membership lookup. Baseline: Postgres LISTEN/NOTIFY to as many listeners at
 * the same rates, measured in the same run (the highest rate tried is the ceiling of both).
 */

const SUBSCRIBERS = 20;
const TABLE = 'bench_events';
const RATES = [25, 50, 100, 200, 400];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function insertAtRate(db: pg.Client, perSecond: number, seconds: number) {
  const total = Math.round(perSecond * seconds);
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    await db.query(`insert into public.${TABLE} (team, note) values (1, $1)`, [`n${i}`]);
    const wait = started + ((i + 1) * 1000) / perSecond - performance.now();
    if (wait > 0) await sleep(wait);
  }
  return total;
}

async function createUsers(stack: RunningStack, db: pg.Client, count: number) {
  const service = clientFor(stack, stack.serviceRoleKey);
  const users: Array<{ email: string; password: string }> = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-${crypto.randomUUID()}@bench.local`;
    const password = 'bench-password';
    const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
    if (created.error) throw created.error;
    await db.query(`insert into public.bench_members (user_id, team) values ($1, 1)`, [created.data.user.id]);
    users.push({ email, password });
  }
  return users;
}

/** One subscribed supabase-js client per user given; every INSERT's latency lands in `latencies`. */
async function subscribeAll(
  stack: RunningStack,
  users: Array<{ email: string; password: string }>,
  latencies: number[],
): Promise<SupabaseClient[]> {
  const clients: SupabaseClient[] = [];
  for (const [index, user] of users.entries()) {
    const client = clientFor(stack);
    const session = await client.auth.signInWithPassword(user);
    if (session.error) throw session.error;
    await client.realtime.setAuth(session.data.session.access_token);
    await new Promise<void>((resolve, reject) => {
      client
        .channel(`bench-${index}`)
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: TABLE }, (payload) => {
          latencies.push(Date.now() - Date.parse(payload.commit_timestamp));
        })
        .subscribe((status, error) =>
          status === 'SUBSCRIBED'
            ? resolve()
            : status === 'CHANNEL_ERROR'
              ? reject(error ?? new Error(status))
              : undefined,
        );
    });
    clients.push(client);
  }
  return clients;
}

async function measureAudience(
  stack: RunningStack,
  db: pg.Client,
  label: string,
  users: Array<{ email: string; password: string }>,
  seconds: number,
) {
  const latencies: number[] = [];
  progress('realtime', `${label}: subscribing ${users.length} clients`);
  const clients = await subscribeAll(stack, users, latencies);
  try {
    // Wait until changes flow to every subscriber before measuring.
    for (let i = 0; i < 50 && latencies.length < users.length; i++) {
      await db.query(`insert into public.${TABLE} (team, note) values (1, 'warm-up')`);
      await sleep(200);
    }
    await sleep(500);
    const measure = async (rate: number, duration: number) => {
      latencies.length = 0;
      const total = await insertAtRate(db, rate, duration);
      await sleep(1000);
      return { samples: [...latencies], expected: total * users.length };
    };
    progress('realtime', `${label}: 10 changes/s for ${seconds} s`);
    const steady = await measure(10, seconds);
    let sustained = 0;
    for (const rate of RATES) {
      progress('realtime', `${label}: trying ${rate} changes/s`);
      const { samples, expected } = await measure(rate, isQuick() ? 1 : 4);
      if (samples.length < expected || percentile(samples, 95) > 250) break;
      sustained = rate;
    }
    return { steady: steady.samples, delivered: steady.samples.length / steady.expected, sustained };
  } finally {
    for (const client of clients) await client.removeAllChannels();
  }
}

/**
 * The raw baseline: the same changes announced with pg_notify to SUBSCRIBERS plain LISTEN connections, at
 * 10/s for latency and then at each rate of RATES for the highest one whose p95 stays within 250 ms.
 */
async function notifyBaseline(stack: RunningStack, db: pg.Client, seconds: number) {
  progress('realtime', `LISTEN/NOTIFY baseline with ${SUBSCRIBERS} listeners`);
  const latencies: number[] = [];
  const listeners: pg.Client[] = [];
  try {
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const listener = new pg.Client({ connectionString: stack.adminDbUrl });
      await listener.connect();
      listener.on('notification', (message) => latencies.push(Date.now() - Number(message.payload)));
      await listener.query('listen bench_channel');
      listeners.push(listener);
    }
    const notifyAtRate = async (perSecond: number, duration: number) => {
      latencies.length = 0;
      const total = Math.round(perSecond * duration);
      const started = performance.now();
      for (let i = 0; i < total; i++) {
        await db.query(`select pg_notify('bench_channel', $1)`, [String(Date.now())]);
        const wait = started + ((i + 1) * 1000) / perSecond - performance.now();
        if (wait > 0) await sleep(wait);
      }
      await sleep(1000);
      return { samples: [...latencies], expected: total * SUBSCRIBERS };
    };
    const steady = (await notifyAtRate(10, seconds)).samples;
    let sustained = 0;
    for (const rate of RATES) {
      progress('realtime', `LISTEN/NOTIFY: trying ${rate} changes/s`);
      const { samples, expected } = await notifyAtRate(rate, isQuick() ? 1 : 4);
      if (samples.length < expected || percentile(samples, 95) > 250) break;
      sustained = rate;
    }
    return { steady, sustained };
  } finally {
    for (const listener of listeners) await listener.end();
  }
}

export async function run(): Promise<BenchRow[]> {
  const seconds = isQuick() ? 3 : 15;
  return withStack(async (stack) => {
    const db = new pg.Client({ connectionString: stack.adminDbUrl });
    await db.connect();
    try {
      // Created as the app's migrations would be (role postgres), so the API roles get their usual grants.
      await db.query('set role postgres');
      await db.query(`
        create table public.bench_members (user_id uuid not null, team int not null, primary key (user_id, team));
        create table public.${TABLE} (id bigint generated always as identity primary key, team int not null, note text not null);
        alter table public.bench_members enable row level security;
        alter table public.${TABLE} enable row level security;
        create policy "Members read their memberships" on public.bench_members for select to authenticated
          using (user_id = (select auth.uid()));
        create policy "Team members read their team's events" on public.${TABLE} for select to authenticated
          using (team in (select m.team from public.bench_members m where m.user_id = (select auth.uid())));
        alter publication supabase_realtime add table public.${TABLE};`);
      await db.query('reset role');
      const users = await createUsers(stack, db, SUBSCRIBERS);
      const shared = await measureAudience(
        stack,
        db,
        'one user',
        Array.from({ length: SUBSCRIBERS }, () => users[0]!),
        seconds,
      );
      const distinct = await measureAudience(stack, db, `${SUBSCRIBERS} users`, users, seconds);
      const notify = await notifyBaseline(stack, db, seconds);

      const latencyRows = (label: string, samples: number[]): BenchRow[] =>
        [50, 95].map((p) => ({
          metric: `realtime commit → delivery, ${SUBSCRIBERS} subscribers (${label}) at 10/s, p${p}`,
          unit: 'ms',
          value: percentile(samples, p),
          baseline: percentile(notify.steady, p),
          baselineLabel: 'LISTEN/NOTIFY',
          goal: p === 95 ? 'p95 < 250 ms' : '—',
          higherIsBetter: false,
        }));
      const sustainedRow = (label: string, value: number): BenchRow => ({
        metric: `realtime changes/s sustained with p95 ≤ 250 ms, ${SUBSCRIBERS} subscribers (${label})`,
        unit: 'changes/s',
        value,
        baseline: notify.sustained,
        baselineLabel: 'LISTEN/NOTIFY',
        goal: '≥ 50/s',
        higherIsBetter: true,
      });
      progress(
        'realtime',
        `delivered at 10/s: ${(shared.delivered * 100).toFixed(1)} % (one user), ${(distinct.delivered * 100).toFixed(1)} % (${SUBSCRIBERS} users)`,
      );
      return [
        ...latencyRows('one user', shared.steady),
        ...latencyRows(`${SUBSCRIBERS} users`, distinct.steady),
        sustainedRow('one user', shared.sustained),
        sustainedRow(`${SUBSCRIBERS} users`, distinct.sustained),
      ];
    } finally {
      await db.end();
    }
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('realtime', await run());
}
