import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import sharp from 'sharp';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startStack, type RunningStack } from '@mediateca/stack';
import { seedAccounts } from '../../tests/helpers/seed.ts';
import { POSTGRES_SHARED_MEMORY, stackMemory, type PartMemory } from '../load/processes.ts';
import { clientFor } from './harness.ts';

/**
 * Ordinary use on a stack of its own, counting restarts: PostgREST says "Starting PostgREST" once (at start) and
 * never again, no process of the stack stops, nothing asks PostgREST to reload its schema (a reload runs
 * PostgREST's whole connection worker again and flushes its pool), no call fails, and no part of the stack keeps
 * growing. Ordinary use is what people do all day, through the official clients: signing in, searching and
 * counting, opening a file, editing its texts and tags (which refreshes the analysts' views), uploading a picture
 * that is then processed, with a realtime subscription open throughout.
 *
 * `npm run bench -- soak` runs it for ten minutes; stack/tests/stack-stability.test.ts runs one minute of it on
 * every CI run, at a quicker pace so every kind of call still comes round several times.
 */

export interface SoakOptions {
  minutes: number;
  /** A round starts this long after the previous one started (or at once when that one took longer). */
  roundEveryMs: number;
  /** No more rounds than this, whatever time is left. */
  maxRounds: number;
}

/** The ten-minute soak's pace: one round every few seconds keeps it cheap on a 2-core machine. */
export const SOAK_DEFAULTS: SoakOptions = { minutes: 10, roundEveryMs: 3000, maxRounds: 1000 };

/**
 * How much a part of the stack (PSS, Postgres's shared memory apart) may grow from the end of the warm-up to
 * the end: a tenth, and 32 MB more. A one-minute run saw Postgres's backends go from 90 to 104 MB as their
 * caches filled; the slack keeps that from failing CI while a leak of every round still shows.
 */
const GROWTH_ALLOWED = 1.1;
const GROWTH_SLACK_BYTES = 32e6;
/** Memory is first sampled after this share of the run: pools have opened, caches and JIT have warmed. */
const WARM_UP_SHARE = 0.25;

export interface SoakStack {
  stack: RunningStack;
  /** Every line the stack logged, with when. */
  log: Array<{ at: number; line: string }>;
  /** Every schema reload request PostgREST would act on (`NOTIFY pgrst`). */
  schemaReloads: string[];
  stop(): Promise<void>;
}

/** A seeded ephemeral stack on loopback, its log kept, and a listener on PostgREST's reload channel. */
export async function startSoakStack(): Promise<SoakStack> {
  const log: SoakStack['log'] = [];
  const stack = await startStack({
    ephemeral: true,
    seed: true,
    host: '127.0.0.1',
    log: (line) => log.push({ at: Date.now(), line }),
  });
  const schemaReloads: string[] = [];
  const listener = new pg.Client({ connectionString: stack.adminDbUrl });
  try {
    await listener.connect();
    listener.on('notification', (message) => schemaReloads.push(`${message.channel}: ${message.payload ?? ''}`));
    await listener.query('listen pgrst');
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return {
    stack,
    log,
    schemaReloads,
    stop: async () => {
      await listener.end().catch(() => {});
      await stack.stop();
    },
  };
}

async function signedIn(stack: RunningStack, role: 'ADMIN' | 'UPLOADER'): Promise<SupabaseClient> {
  const supabase = clientFor(stack);
  const { email, password } = seedAccounts[role];
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return supabase;
}

/** One round of what a person does; every call must succeed. */
async function ordinaryUse(
  stack: RunningStack,
  round: number,
  admin: SupabaseClient,
  uploader: SupabaseClient,
  tagIds: string[],
) {
  const failures: string[] = [];
  const check = (what: string, error: { message: string } | null) => {
    if (error) failures.push(`round ${round}, ${what}: ${error.message}`);
  };
  const page = await admin.rpc('search_files', { p_filter: {}, p_limit: 50 }).select('id, updated_at');
  check('search', page.error);
  check('count', (await admin.rpc('count_files', { p_filter: { type: 'image' } })).error);
  check('search a word', (await admin.rpc('search_files', { p_filter: { query: 'piscina' }, p_limit: 20 })).error);
  const files = (page.data ?? []) as Array<{ id: string }>;
  const file = files[round % Math.max(files.length, 1)];
  if (file) {
    check('detail', (await admin.from('files').select('*, file_tags(tag_id)').eq('id', file.id).single()).error);
    check(
      'edit texts and tags',
      (
        await admin.rpc('update_file', {
          p_file_id: file.id,
          p_tag_ids: tagIds.slice(0, 1 + (round % tagIds.length)),
          p_description_es: `Revisado en la ronda ${round}`,
        })
      ).error,
    );
  }
  if (round % 5 === 0) {
    // An uploader's picture, stored and recorded as the upload screen does; the server processes it.
    const id = crypto.randomUUID();
    const objectPath = `${id}/${crypto.randomUUID()}.jpg`;
    const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0084D8' } })
      .jpeg()
      .toBuffer();
    check(
      'upload',
      (await uploader.storage.from('media').upload(objectPath, bytes, { contentType: 'image/jpeg' })).error,
    );
    check(
      'record',
      (
        await uploader.from('files').insert({
          id,
          file_name: objectPath.split('/')[1],
          object_path: objectPath,
          original_file_name: `ronda-${round}.jpg`,
          name_es: `ronda ${round}`,
          name_en: `ronda ${round}`,
          extension: 'jpg',
          processing: true,
        })
      ).error,
    );
  }
  if (round % 10 === 0) {
    const again = await signedIn(stack, 'ADMIN');
    check('sign out', (await again.auth.signOut()).error);
  }
  return failures;
}

/** A part's memory at the end of the warm-up and at the end of the run. */
export interface PartGrowth {
  part: string;
  warm: PartMemory;
  end: PartMemory;
  /** What the end may reach (null: not bounded, Postgres's shared buffers fill as pages are read). */
  allowedBytes: number | null;
}

export interface SoakReport {
  options: SoakOptions;
  rounds: number;
  /** Milliseconds each round took. */
  roundMs: number[];
  /** Calls that failed, `round N, what: message`. */
  failures: string[];
  /** Realtime changes the open subscription received. */
  changes: number;
  /** Every "Starting PostgREST" the stack logged, since it started: `<ms from the soak's start> ms: line`. */
  postgrestStarts: string[];
  /** What the stack logged during the soak about PostgREST starting, reconnecting or reloading its schema. */
  reloadsLogged: string[];
  /** What the stack logged during the soak about a process stopping or restarting. */
  stopsLogged: string[];
  /** Schema reload requests (`NOTIFY pgrst`) during the soak. */
  schemaReloads: string[];
  /** Whether the analysts' views were refreshed during the soak (their refresh is the job that once reloaded). */
  analyticsRefreshed: boolean;
  /** Server jobs still pending or running, due by the end, once the soak stopped waiting for them. */
  jobsUnfinished: number;
  memory: PartGrowth[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long the end waits for the server's jobs to settle: the analysts' refresh comes a minute after a change. */
const JOBS_SETTLE_MS = 90_000;

/**
 * Waits (at most JOBS_SETTLE_MS) until the analysts' views were refreshed since `since` and no job due by now is
 * pending or running; says what it found when it stopped.
 */
async function serverJobsSettle(stack: RunningStack, since: number) {
  const db = new pg.Client({ connectionString: stack.adminDbUrl });
  await db.connect();
  try {
    const deadline = Date.now() + JOBS_SETTLE_MS;
    for (;;) {
      const { rows } = await db.query<{ refreshed: boolean; unfinished: number }>(
        `select exists (select 1 from private.analytics_refreshes where refreshed_at >= to_timestamp($1 / 1000.0))
                  as refreshed,
                (select count(*)::int from public.server_jobs
                  where state in ('pending', 'running') and run_after <= now()) as unfinished`,
        [since],
      );
      const { refreshed, unfinished } = rows[0]!;
      if ((refreshed && unfinished === 0) || Date.now() > deadline) {
        return { analyticsRefreshed: refreshed, jobsUnfinished: unfinished };
      }
      await sleep(1000);
    }
  } finally {
    await db.end();
  }
}

/**
 * The memory of the stack's process tree (it runs in this process; Postgres, PostgREST and the Deno workers are
 * its children) after a full garbage collection here, so the Node part counts what is kept, not what is due.
 */
async function settledMemory(): Promise<Map<string, PartMemory>> {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return stackMemory(process.pid);
}

/** Runs ordinary use on `soakStack` for `options.minutes` (or `options.maxRounds` rounds) and says what it saw. */
export async function soak(soakStack: SoakStack, options: SoakOptions): Promise<SoakReport> {
  const { stack, log, schemaReloads } = soakStack;
  const admin = await signedIn(stack, 'ADMIN');
  const uploader = await signedIn(stack, 'UPLOADER');
  const tags = await admin.from('tags').select('id').limit(4);
  if (tags.error) throw new Error(`reading tags: ${tags.error.message}`);
  const tagIds = (tags.data ?? []).map((tag) => tag.id as string);
  let changes = 0;
  const channel = admin
    .channel('stability')
    .on('postgres_changes', { event: '*', schema: 'public', table: 'files' }, () => {
      changes++;
    });
  await new Promise<void>((resolve, reject) => {
    channel.subscribe((status) =>
      status === 'SUBSCRIBED' ? resolve() : status === 'CHANNEL_ERROR' && reject(new Error(status)),
    );
  });

  const startedAt = Date.now();
  const afterStart = log.length;
  const reloadsBefore = schemaReloads.length;
  const failures: string[] = [];
  const roundMs: number[] = [];
  const durationMs = options.minutes * 60_000;
  let warm: Map<string, PartMemory> | null = null;
  while (Date.now() - startedAt < durationMs && roundMs.length < options.maxRounds) {
    const roundStart = Date.now();
    failures.push(...(await ordinaryUse(stack, roundMs.length, admin, uploader, tagIds)));
    roundMs.push(Date.now() - roundStart);
    if (!warm && Date.now() - startedAt >= durationMs * WARM_UP_SHARE) warm = await settledMemory();
    await sleep(Math.max(0, options.roundEveryMs - (Date.now() - roundStart)));
  }
  // The server's work the rounds queued runs while the stack is still watched: the analysts' views are refreshed
  // a minute after the first tag change (a refresh once made PostgREST reload), uploads are processed.
  const jobs = await serverJobsSettle(stack, startedAt);
  await admin.removeChannel(channel);
  const end = await settledMemory();
  warm ??= end;

  const during = log.slice(afterStart).map((entry) => entry.line);
  return {
    options,
    rounds: roundMs.length,
    roundMs,
    failures,
    changes,
    postgrestStarts: log
      .filter((entry) => entry.line.includes('Starting PostgREST'))
      .map((entry) => `${entry.at - startedAt} ms: ${entry.line}`),
    reloadsLogged: during.filter((line) =>
      /Starting PostgREST|Attempting to (re)?connect|Schema cache loaded/.test(line),
    ),
    stopsLogged: during.filter((line) => /stopped unexpectedly|exited \(|restarting|listener lost/.test(line)),
    schemaReloads: schemaReloads.slice(reloadsBefore),
    ...jobs,
    memory: [...end].map(([part, memoryAtEnd]) => {
      const atWarm = warm.get(part) ?? memoryAtEnd;
      return {
        part,
        warm: atWarm,
        end: memoryAtEnd,
        allowedBytes: part === POSTGRES_SHARED_MEMORY ? null : atWarm.bytes * GROWTH_ALLOWED + GROWTH_SLACK_BYTES,
      };
    }),
  };
}

/** The rounds a run must reach: more than half of what its pace allows in its time, or its bound on rounds. */
export function roundsExpected(options: SoakOptions): number {
  return Math.min(options.maxRounds, Math.floor((options.minutes * 60_000) / options.roundEveryMs / 2) + 1);
}

/** Parts that grew past what they may, in words. */
export function memoryGrowth(report: SoakReport): string[] {
  return report.memory
    .filter((part) => part.allowedBytes !== null && part.end.bytes > part.allowedBytes)
    .map(
      (part) =>
        `${part.part}: ${(part.warm.bytes / 1e6).toFixed(1)} MB after the warm-up, ${(part.end.bytes / 1e6).toFixed(1)} MB at the end (at most ${(part.allowedBytes! / 1e6).toFixed(1)} MB)`,
    );
}

/** Everything the soak holds the stack to, broken: empty when it passed. */
export function soakProblems(report: SoakReport): string[] {
  const problems = [
    ...report.failures.map((failure) => `failed call: ${failure}`),
    ...report.postgrestStarts.slice(1).map((start) => `PostgREST started again: ${start}`),
    ...report.reloadsLogged.map((line) => `reload logged: ${line}`),
    ...report.stopsLogged.map((line) => `stop logged: ${line}`),
    ...report.schemaReloads.map((reload) => `schema reload requested: ${reload}`),
    ...memoryGrowth(report).map((growth) => `memory grew: ${growth}`),
  ];
  if (report.postgrestStarts.length === 0) problems.push('PostgREST never said it started');
  if (report.rounds < roundsExpected(report.options)) {
    problems.push(`only ${report.rounds} rounds (${roundsExpected(report.options)} expected)`);
  }
  if (report.changes === 0) problems.push('no realtime change arrived');
  if (!report.analyticsRefreshed) problems.push("the analysts' views were not refreshed during the soak");
  if (report.jobsUnfinished > 0) problems.push(`${report.jobsUnfinished} server jobs due were still unfinished`);
  return problems;
}
