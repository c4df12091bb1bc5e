import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { queryOnce } from '../tests/helpers/checks.ts';
import { generateDataset } from '../scripts/generate-dataset.ts';
import { progress } from './lib/harness.ts';
import { report, type BenchRow } from './lib/report.ts';
import { withStackProcess } from './lib/stack-process.ts';
import { oneUser } from './load/baseline.ts';
import { EditLedger } from './load/edits.ts';
import { injectFaults, sampleMemory } from './load/faults.ts';
import { Metrics, sleep } from './load/metrics.ts';
import { startMachineWatch } from './load/machine.ts';
import { watchDatabaseTime } from './load/database-time.ts';
import { ADMINS, LIBRARY_FILES, SUBSCRIBERS, UPLOADERS, loadOptions } from './load/options.ts';
import { adminDay, uploaderDay, type Workplace } from './load/people.ts';
import { loadRows, printProblems } from './load/rows.ts';
import { createStaff, signIn, signOut, type Person } from './load/staff.ts';
import { subscribe, type Subscriber } from './load/subscribers.ts';
import { checkEdits, checkJobs, checkUploads } from './load/verify.ts';
import { UploadPool } from './load/uploads.ts';

/**
 * `npm run bench -- load [--minutes N] [--faults]`: a working day's peak of 50 people (40 uploaders, 10
 * admins) on the official client against the stack in its own process, as `npm start` runs it: signing in,
 * searching, scrolling, opening and editing files (crossing saves on purpose), tagging in bulk, uploading
 * 5–50 MB files by TUS with a cut and a resume each, 20 of them with the app's live channel open. The one-user
 * figures come from the same run, just before. With --faults, Postgres restarts and the functions runtime is
 * killed in the middle. The end is read from the database: no accepted save lost, every upload's SHA-256
 * intact, every server job done.
 */
const WORDS = ['piscina', 'terraza', 'spa', 'boda', 'suite', 'playa', 'desayuno', 'evento', 'verano', 'jardín'];

/** Unpublished, processed files of the generated library: the shared ones admins edit, and the baseline's. */
async function libraryPicks(adminDbUrl: string) {
  const files = await queryOnce<{ id: string }>(
    adminDbUrl,
    `select id from public.files where not published and not processing order by random() limit 100`,
  );
  const tags = await queryOnce<{ id: string }>(adminDbUrl, 'select id from public.tags order by id limit 20');
  const ids = files.map((row) => row.id);
  return { sharedFiles: ids.slice(0, 10), baselineFiles: ids.slice(10), tagIds: tags.map((row) => row.id) };
}

export async function run(): Promise<BenchRow[]> {
  const options = loadOptions();
  const label = options.faults ? 'load with faults' : 'load';
  return withStackProcess(async (stack, control) => {
    progress('load', `generating a library of ${LIBRARY_FILES} files`);
    await generateDataset(stack.adminDbUrl, { files: LIBRARY_FILES });
    progress('load', `creating ${UPLOADERS} uploaders and ${ADMINS} admins`);
    const accounts = await createStaff(stack, UPLOADERS, ADMINS);
    const picks = await libraryPicks(stack.adminDbUrl);
    const tempDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-load-'));
    const pool = new UploadPool(tempDir);
    // One upload per uploader at the start, then one every 2.5 minutes on average; two for the baseline.
    const planned = 2 + UPLOADERS * Math.ceil(1 + Math.max(0, options.minutes * 60 - 30) / 150);
    progress('load', `writing the ${planned} files people will upload`);
    await pool.fill(planned);
    progress('load', `${(pool.bytes / 1e9).toFixed(2)} GB ready`);
    const metrics = new Metrics();
    const ledger = new EditLedger();
    const runStartedAt = new Date();
    try {
      progress('load', 'one user alone: the baseline');
      const context = { ledger, files: picks.baselineFiles, tagIds: picks.tagIds, words: WORDS, pool };
      await control.takeRealtime();
      const uploads = await oneUser(stack, accounts[0]!, metrics, context);
      const realtimeAlone = await control.takeRealtime();

      metrics.phase = 'load';
      const startedAt = Date.now();
      const place: Workplace = {
        stack,
        metrics,
        ledger,
        uploads,
        sharedFiles: picks.sharedFiles,
        tagIds: picks.tagIds,
        words: WORDS,
        pool,
        until: startedAt + options.minutes * 60_000,
      };
      // Ten admins and ten uploaders keep the app's live channel open.
      const watchers = new Set([
        ...accounts.slice(0, 10),
        ...accounts.filter((a) => a.role === 'UPLOADER').slice(0, SUBSCRIBERS - 10),
      ]);
      const people: Person[] = [];
      const subscribers: Subscriber[] = [];
      progress(
        'load',
        `${accounts.length} people working for ${options.minutes} min${options.faults ? ', with faults' : ''}`,
      );
      const machine = startMachineWatch();
      await control.loopDelay();
      const stackCpuBefore = await control.cpuSeconds();
      const loadStarted = performance.now();
      let working = true;
      const memory = sampleMemory(control.pid, startedAt, (options.minutes * 60_000) / 2, () => !working);
      const databaseTime = await watchDatabaseTime(stack.adminDbUrl, () => working).catch((error: unknown) => {
        progress('load', `database timings not watched: ${String(error)}`);
        return async () => {};
      });
      const faults = options.faults
        ? injectFaults(control, metrics, { startedAt, ms: options.minutes * 60_000 })
        : Promise.resolve([]);
      // People arrive over the first 20 seconds, as a shift starts.
      await Promise.all(
        accounts.map(async (account) => {
          await sleep(Math.random() * 20_000);
          const person = await signIn(stack, account, metrics);
          if (!person) return;
          people.push(person);
          if (watchers.has(account)) subscribers.push(...(await subscribe([person], metrics, startedAt)));
          await (person.role === 'ADMIN' ? adminDay : uploaderDay)(person, place);
        }),
      );
      working = false;
      // What Postgres saw is printed beside the figures; a failure to read it must not lose the run.
      await databaseTime().catch((error: unknown) => progress('load', `database timings not read: ${String(error)}`));
      const outcome = {
        label,
        metrics,
        subscribers,
        memory: await memory,
        faults: await faults,
        machine: machine.stop(),
        stack: {
          loopDelay: await control.loopDelay(),
          realtime: { alone: realtimeAlone, load: await control.takeRealtime() },
          cores: ((await control.cpuSeconds()) - stackCpuBefore) / ((performance.now() - loadStarted) / 1000),
        },
      };

      progress('load', `checking ${uploads.length} uploads, ${ledger.accepted.length} saves and the server's jobs`);
      // Changes of the last seconds still on their way to the live channels.
      await sleep(2000);
      const result = {
        ...outcome,
        uploads: await checkUploads(stack.adminDbUrl, uploads, 5 * 60_000),
        jobs: await checkJobs(stack.adminDbUrl, runStartedAt, 5 * 60_000),
        edits: await checkEdits(stack.adminDbUrl, ledger),
      };
      for (const person of people) await signOut(person);
      printProblems(result);
      return loadRows(result);
    } finally {
      await rm(tempDir, { recursive: true, force: true });
    }
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('load', await run());
}
