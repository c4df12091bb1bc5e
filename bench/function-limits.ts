import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import pg from 'pg';
import * as tus from 'tus-js-client';
import type { RunningStack, FunctionRequestUsage } from '@mediateca/stack';
import { isQuick, libraryFiles, sizeLabel, report, type BenchRow } from './lib/report.ts';
import { clientFor, progress, signedInAdmin, withStack } from './lib/harness.ts';
import { generateDataset } from '../scripts/generate-dataset.ts';

/**
 * The server's work against hosted's Edge Function limits (2 s of CPU and 256 MB per request, 150 s): per
 * function and job kind, the worst request's CPU time, peak memory and wall time, with the limit as the
 * baseline (goal: at most half of it). Measured on a generated library (100k files, or `--files N`): a full
 * rebuild of the public feed, one edit of a published file (until the feed shows it, and the bytes it
 * rewrote), the post-processing of a 1 GB upload (10⁹ bytes; 64 MiB with --quick), and a call of each
 * function the app makes. The stack enforces the limits, so a request over one fails the benchmark.
 */

const BENCH = 'function-limits';

async function settle(db: pg.Client, kind: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ busy: number }>(
      `select count(*)::int as busy from public.server_jobs where kind = $1 and state in ('pending', 'running')`,
      [kind],
    );
    if (rows[0]!.busy === 0) return;
    if (Date.now() > deadline) throw new Error(`${kind} still busy after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** settle() returns once nothing is pending or running, which a job that failed for good also satisfies. */
async function expectNoFailedJob(db: pg.Client, kind: string): Promise<void> {
  const { rows } = await db.query<{ last_error: string | null }>(
    `select last_error from public.server_jobs where kind = $1 and state = 'failed' limit 1`,
    [kind],
  );
  if (rows.length) throw new Error(`a ${kind} job failed: ${rows[0]!.last_error}`);
}

function worstRows(label: string, usage: FunctionRequestUsage[], stack: RunningStack): BenchRow[] {
  if (!usage.length) throw new Error(`${label}: no function request was recorded`);
  const over = usage.filter((entry) => entry.limit !== null || entry.status >= 500);
  if (over.length) throw new Error(`${label}: ${over.length} request(s) failed: ${JSON.stringify(over[0])}`);
  const { cpuMs, memoryMb, wallClockMs } = stack.functionLimits;
  const worst = (pick: (entry: FunctionRequestUsage) => number) => Math.max(...usage.map(pick));
  const row = (what: string, unit: string, value: number, limit: number): BenchRow => ({
    metric: `${label}: worst ${what} of ${usage.length} request(s)`,
    unit,
    value,
    baseline: limit,
    baselineLabel: 'hosted limit',
    goal: '≤ 0.5× the limit',
    higherIsBetter: false,
  });
  return [
    row(
      'CPU',
      'ms',
      worst((entry) => entry.cpuMs),
      cpuMs,
    ),
    row(
      'memory',
      'MB',
      worst((entry) => entry.peakMemoryMb),
      memoryMb,
    ),
    row(
      'wall time',
      'ms',
      worst((entry) => entry.wallMs),
      wallClockMs,
    ),
  ];
}

const usageSince = (stack: RunningStack, from: number, keep: (entry: FunctionRequestUsage) => boolean) =>
  stack.functionUsage().slice(from).filter(keep);

/** A job runner's request that ran a job of this kind (its `x-server-job` lists every kind it ran). */
const ranJob = (kind: string) => (entry: FunctionRequestUsage) =>
  entry.function === 'run-jobs' && (entry.job ?? '').split(',').includes(kind);

async function writeBigFile(file: string, bytes: number): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  const block = Buffer.alloc(4 * 1024 * 1024);
  for (let written = 0; written < bytes; written += block.length) {
    // Every block different, so nothing downstream can shortcut repeated bytes.
    block.writeUInt32BE(written / block.length, 0);
    const chunk = block.subarray(0, Math.min(block.length, bytes - written));
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return hash.digest('hex');
}

function tusUpload(stack: RunningStack, file: string, size: number, objectName: string): Promise<void> {
  return new Promise((resolve, reject) => {
    new tus.Upload(createReadStream(file), {
      endpoint: `${stack.apiUrl}/storage/v1/upload/resumable`,
      headers: { authorization: `Bearer ${stack.serviceRoleKey}` },
      uploadSize: size,
      chunkSize: 6 * 1024 * 1024,
      retryDelays: [],
      metadata: { bucketName: 'media', objectName, contentType: 'application/octet-stream' },
      onError: reject,
      onSuccess: () => resolve(),
    }).start();
  });
}

export async function run(): Promise<BenchRow[]> {
  const files = libraryFiles();
  const size = sizeLabel(files);
  const uploadBytes = isQuick() ? 64 * 1024 * 1024 : 1_000_000_000;
  return withStack(async (stack) => {
    progress(BENCH, `generating ${size} files`);
    await generateDataset(stack.adminDbUrl, { files });
    const db = new pg.Client({ connectionString: stack.adminDbUrl });
    await db.connect();
    const rows: BenchRow[] = [];
    try {
      await settle(db, 'update_feed', 600_000);

      progress(BENCH, 'rebuilding the public feed');
      let from = stack.functionUsage().length;
      let started = Date.now();
      const { rows: queued } = await db.query<{ pages: number }>('select public.rebuild_public_feed() as pages');
      await settle(db, 'update_feed', 60 * 60_000);
      await expectNoFailedJob(db, 'update_feed');
      const rebuildMs = Date.now() - started;
      const rebuild = usageSince(stack, from, ranJob('update_feed'));
      rows.push(...worstRows(`feed rebuild at ${size} (${queued[0]!.pages} pages)`, rebuild, stack));
      rows.push({
        metric: `feed rebuild at ${size}: whole rebuild, in ${rebuild.length} requests`,
        unit: 's',
        value: Math.round(rebuildMs / 100) / 10,
        baseline: null,
        baselineLabel: '',
        goal: 'each request within the limits',
        higherIsBetter: false,
      });

      progress(BENCH, 'editing one published file');
      const { rows: sample } = await db.query<{ id: string }>(
        'select id from public.files where published order by id limit 1',
      );
      const fileId = sample[0]!.id;
      const page = fileId.slice(0, 3);
      const indexUrl = `${stack.apiUrl}/storage/v1/object/public/public-feed/index.json`;
      const etagOf = async () => {
        const index = (await (await fetch(`${indexUrl}?t=${Date.now()}`)).json()) as {
          pages: Array<{ id: string; etag: string }>;
        };
        return index.pages.find((entry) => entry.id === page)?.etag;
      };
      const before = await etagOf();
      from = stack.functionUsage().length;
      started = Date.now();
      await db.query(`update public.files set name_es = name_es || ' (editado)' where id = $1`, [fileId]);
      while ((await etagOf()) === before) {
        if (Date.now() - started > 60_000) throw new Error('the feed did not follow the edit within a minute');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const currentMs = Date.now() - started;
      await settle(db, 'update_feed', 60_000);
      const edit = usageSince(stack, from, ranJob('update_feed'));
      rows.push(...worstRows(`one published file edited at ${size}`, edit, stack));
      const bytesOf = async (url: string) => (await (await fetch(`${url}?t=${Date.now()}`)).arrayBuffer()).byteLength;
      const written =
        (await bytesOf(`${stack.apiUrl}/storage/v1/object/public/public-feed/pages/${page}.json`)) +
        (await bytesOf(indexUrl));
      rows.push(
        {
          metric: `one published file edited at ${size}: commit → feed shows it`,
          unit: 'ms',
          value: currentMs,
          baseline: 5000,
          baselineLabel: 'goal',
          goal: '≤ 5 s',
          higherIsBetter: false,
        },
        {
          metric: `one published file edited at ${size}: bytes rewritten (its page + index)`,
          unit: 'KB',
          value: Math.round(written / 1024),
          baseline: 2048,
          baselineLabel: 'goal',
          goal: '≤ 2 MB',
          higherIsBetter: false,
        },
      );

      progress(BENCH, `post-processing a ${Math.round(uploadBytes / 1e6)} MB upload`);
      const bigId = crypto.randomUUID();
      const dir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-bench-upload-'));
      try {
        const file = path.join(dir, 'grande.bin');
        const checksum = await writeBigFile(file, uploadBytes);
        const id = bigId;
        const objectPath = `${id}/grande.bin`;
        await tusUpload(stack, file, uploadBytes, objectPath);
        from = stack.functionUsage().length;
        started = Date.now();
        await db.query(
          `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, extension)
           values ($1, 'grande.bin', $2, 'grande.bin', 'Grande', 'Big', 'bin')`,
          [id, objectPath],
        );
        await settle(db, 'process_upload', 30 * 60_000);
        const processMs = Date.now() - started;
        const { rows: processed } = await db.query<{ checksum: string | null; processing: boolean }>(
          'select checksum, processing from public.files where id = $1',
          [id],
        );
        if (processed[0]!.processing || processed[0]!.checksum !== checksum) {
          throw new Error(`the upload was not processed right: ${JSON.stringify(processed[0])}`);
        }
        const steps = usageSince(stack, from, ranJob('process_upload'));
        rows.push(...worstRows(`post-processing of a ${Math.round(uploadBytes / 1e6)} MB upload`, steps, stack));
        rows.push({
          metric: `post-processing of a ${Math.round(uploadBytes / 1e6)} MB upload: until processed (exact sha256)`,
          unit: 's',
          value: Math.round(processMs / 100) / 10,
          baseline: null,
          baselineLabel: '',
          goal: 'each request within the limits',
          higherIsBetter: false,
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }

      progress(BENCH, 'calling each function the app calls');
      from = stack.functionUsage().length;
      const { client, token } = await signedInAdmin(stack);
      const published = fileId;
      await fetch(`${stack.apiUrl}/functions/v1/public-media/${published}?size=400x300`, { redirect: 'manual' });
      await fetch(`${stack.apiUrl}/functions/v1/share-preview/file/${published}`).then((r) => r.arrayBuffer());
      await client.functions.invoke('staff-users', { body: { action: 'list' } });
      await client.functions.invoke('process-upload', { body: { fileId: bigId } });
      await clientFor(stack, token).functions.invoke('trash-jobs', { body: {} });
      const calls = usageSince(stack, from, (entry) => entry.function !== 'run-jobs');
      for (const name of new Set(calls.map((entry) => entry.function))) {
        rows.push(
          ...worstRows(
            `${name} at ${size}`,
            calls.filter((entry) => entry.function === name),
            stack,
          ),
        );
      }
    } finally {
      await db.end();
    }
    return rows;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report(BENCH, await run());
}
