import { randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import * as tus from 'tus-js-client';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { clientFor, progress, signedInAdmin } from './lib/harness.ts';
import { describeChunks } from './lib/patch-timeline.ts';
import { withStackProcess, type StackEndpoints, type StackProcess } from './lib/stack-process.ts';
import { startUploadClient, type UploadTiming } from './lib/upload-client.ts';

/**
 * Uploads as a person's browser makes them: the stack in a process of its own, the client (tus-js-client,
 * 6 MiB chunks, one after another) in another, through the gateway, with a signed-in admin's JWT into the
 * app's `media` bucket. Against it, the floor of the same machine: the same client process sending the same
 * bytes in the same 6 MiB chunks as raw loopback HTTP PUTs, one after another, to a bare server that writes
 * each to the same disk and fsyncs it before answering. (Stack and client used to share this benchmark's process: the client's reads and the stack's
 * writes then took turns on one event loop, with no process switch between them, which no browser does.)
 * Sizes: the media bucket's limit (10^9 bytes) and a 50 MiB photo shoot; 64 MiB with --quick;
 * BENCH_UPLOAD_MB=<n> sets the large size while working on the upload path.
 * Thumbnails: the 6 sizes of a 12 MP JPEG through render/image, cold and cached, vs sharp called directly.
 */

const CHUNK = 6 * 1024 * 1024;
const SIZES = [
  [200, 150],
  [300, 225],
  [400, 300],
  [500, 375],
  [1024, 768],
  [2048, 1536],
] as const;

async function randomFile(dir: string, bytes: number): Promise<string> {
  const file = path.join(dir, 'payload.bin');
  const handle = await open(file, 'w');
  const block = Buffer.alloc(8 * 1024 * 1024);
  for (let written = 0; written < bytes; written += block.length) {
    randomFillSync(block);
    await handle.write(block, 0, Math.min(block.length, bytes - written));
  }
  await handle.close();
  return file;
}

interface UploadRun {
  /** MB/s */
  rate: number;
  /** CPU-seconds per GiB of the receiving process (the stack's, or the bare server's). */
  serverCpuPerGiB: number;
  /** CPU-seconds per GiB of the client's process. */
  clientCpuPerGiB: number;
  /** Milliseconds from sending the last request of the upload to its answer. */
  lastRequestMs: number;
}

const perGiB = (seconds: number, bytes: number) => seconds / (bytes / 2 ** 30);

const toRun = (timing: UploadTiming, bytes: number, serverCpuSeconds: number): UploadRun => ({
  rate: bytes / 1e6 / (timing.ms / 1000),
  serverCpuPerGiB: perGiB(serverCpuSeconds, bytes),
  clientCpuPerGiB: perGiB(timing.cpuSeconds, bytes),
  lastRequestMs: timing.lastRequestMs,
});

/**
 * The floor for an upload on this machine, in this benchmark's process (idle while the client sends): each
 * chunk's body streamed into the file at its offset and fsynced before the answer, nothing else. That is
 * the durability a TUS PATCH promises (its answer's offset is what a resume after a crash starts from), so
 * the ratio is the share of this disk the stack keeps, not the cost of syncing per chunk at all.
 */
async function startRawServer(target: string) {
  const server = http.createServer((req, res) => {
    void (async () => {
      const offset = Number(req.headers['x-offset'] ?? 0);
      await pipeline(req, createWriteStream(target, { flags: offset === 0 ? 'w' : 'r+', start: offset }));
      // fsync through a handle of its own: it syncs the file's pages whichever descriptor wrote them.
      const handle = await open(target, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      res.writeHead(204).end();
    })().catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/raw`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Bytes sent twice when an upload is cut halfway and resumed: what the client had sent before the cut
 * minus the offset the server reports on resume (at most one chunk in flight is lost).
 */
async function resentAfterInterruption(apiUrl: string, key: string, file: string, size: number): Promise<number> {
  let sent = 0;
  const url = await new Promise<string>((resolve, reject) => {
    const upload: tus.Upload = new tus.Upload(createReadStream(file), {
      endpoint: `${apiUrl}/storage/v1/upload/resumable`,
      headers: { authorization: `Bearer ${key}`, 'x-upsert': 'true' },
      uploadSize: size,
      chunkSize: CHUNK,
      retryDelays: [],
      metadata: { bucketName: 'bench', objectName: 'interrupted.bin' },
      onProgress: (bytes) => {
        sent = bytes;
        if (bytes >= size / 2) void upload.abort().then(() => resolve(upload.url!));
      },
      onError: reject,
      onSuccess: () => reject(new Error('the upload finished before it could be interrupted')),
    });
    upload.start();
  });
  const head = await fetch(url, {
    method: 'HEAD',
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${key}` },
  });
  const offset = Number(head.headers.get('upload-offset'));
  await fetch(url, { method: 'DELETE', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${key}` } });
  return Math.max(0, sent - offset);
}

/** Five alternated rounds: single rounds on this shared machine swing by ±25%. */
const UPLOAD_ROUNDS = 5;

const sizeName = (bytes: number) =>
  bytes % 2 ** 20 === 0 ? `${bytes / 2 ** 20} MiB` : `${(bytes / 1e6).toFixed(0)} MB`;

function uploadSizes(): number[] {
  const asked = Number(process.env.BENCH_UPLOAD_MB);
  if (asked > 0) return [asked * 2 ** 20];
  return isQuick() ? [64 * 2 ** 20] : [1_000_000_000, 50 * 2 ** 20];
}

/** Alternated rounds of raw PUT and TUS for one size, as the rows of the table. */
async function compareUploads(
  stack: StackEndpoints,
  stackProcess: StackProcess,
  scratch: string,
  bytes: number,
): Promise<BenchRow[]> {
  const label = sizeName(bytes);
  progress('storage', `writing ${label} of random bytes`);
  const file = await randomFile(scratch, bytes);
  const { token } = await signedInAdmin(stack);
  const service = clientFor(stack, stack.serviceRoleKey);
  const rawTarget = path.join(scratch, 'raw-put.bin');
  const raw = await startRawServer(rawTarget);
  const client = await startUploadClient();
  // This machine's disk speed swings between runs (raw PUT from 220 to 340 MB/s within minutes), so
  // the raw baseline and the TUS upload alternate and each figure is the median of its rounds.
  const raws: UploadRun[] = [];
  const tusRuns: UploadRun[] = [];
  const objects: string[] = [];
  try {
    for (let round = 1; round <= UPLOAD_ROUNDS; round++) {
      progress(
        'storage',
        `${label} round ${round}/${UPLOAD_ROUNDS}: raw PUTs + fsync each, then TUS through the gateway`,
      );
      const serverCpu = process.cpuUsage();
      const put = await client.upload({ put: { url: raw.url, file, size: bytes, chunkSize: CHUNK } });
      const used = process.cpuUsage(serverCpu);
      raws.push(toRun(put, bytes, (used.user + used.system) / 1e6));
      // Untimed: the next round's PUT then writes a new file, not over a gigabyte it must free first.
      await rm(rawTarget, { force: true });
      await stackProcess.takePatches();
      const objectName = `${crypto.randomUUID()}/bench.bin`;
      objects.push(objectName);
      const stackCpu = await stackProcess.cpuSeconds();
      const upload = await client.upload({
        tus: {
          endpoint: `${stack.apiUrl}/storage/v1/upload/resumable`,
          headers: { authorization: `Bearer ${token}`, apikey: stack.anonKey, 'x-upsert': 'false' },
          file,
          size: bytes,
          chunkSize: CHUNK,
          metadata: { bucketName: 'media', objectName, contentType: 'application/octet-stream' },
        },
      });
      tusRuns.push(toRun(upload, bytes, (await stackProcess.cpuSeconds()) - stackCpu));
      progress('storage', `  TUS: ${describeChunks(await stackProcess.takePatches())}`);
    }
  } finally {
    await client.close();
    await raw.close();
    await rm(rawTarget, { force: true });
    await rm(file, { force: true });
    if (objects.length > 0) await service.storage.from('media').remove(objects);
  }
  const describe = (runs: UploadRun[]) =>
    runs
      .map(
        (r) =>
          `${r.rate.toFixed(0)} MB/s, CPU-s/GiB server ${r.serverCpuPerGiB.toFixed(2)} client ` +
          `${r.clientCpuPerGiB.toFixed(2)}, last ${r.lastRequestMs.toFixed(0)} ms`,
      )
      .join('; ');
  progress('storage', `${label} raw ${describe(raws)}`);
  progress('storage', `${label} TUS ${describe(tusRuns)}`);
  const median = (runs: UploadRun[], key: keyof UploadRun) =>
    percentile(
      runs.map((run) => run[key]),
      50,
    );
  return [
    {
      metric: `TUS upload ${label}, 6 MiB chunks, admin's JWT into media, client and stack in their own processes (median of ${UPLOAD_ROUNDS})`,
      unit: 'MB/s',
      value: median(tusRuns, 'rate'),
      baseline: median(raws, 'rate'),
      baselineLabel: 'raw 6 MiB PUTs, fsync each',
      goal: '≥ 0.85× raw',
      higherIsBetter: true,
    },
    {
      metric: `TUS upload ${label}: the completing PATCH, sent → answered (median)`,
      unit: 'ms',
      value: median(tusRuns, 'lastRequestMs'),
      baseline: median(raws, 'lastRequestMs'),
      baselineLabel: 'raw PUTs: the last one, sent → answered',
      goal: '< 100 ms',
      higherIsBetter: false,
    },
    {
      metric: `TUS upload ${label}: CPU-seconds per GiB of the stack's process (median)`,
      unit: 'CPU-s/GiB',
      value: median(tusRuns, 'serverCpuPerGiB'),
      baseline: median(raws, 'serverCpuPerGiB'),
      baselineLabel: "the bare server's",
      goal: '—',
      higherIsBetter: false,
    },
  ];
}

/** Part of `npm run bench -- --quick`: one 64 MiB size with --quick, about a minute with its thumbnails. */
export const inQuickRun = true;

export async function run(): Promise<BenchRow[]> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'mediateca-bench-'));
  try {
    return await withStackProcess(async (stack, stackProcess) => {
      const service = clientFor(stack, stack.serviceRoleKey);
      await service.storage.createBucket('bench', { public: false, fileSizeLimit: 2 * 1024 * 1024 * 1024 });
      const uploadRows: BenchRow[] = [];
      for (const bytes of uploadSizes())
        uploadRows.push(...(await compareUploads(stack, stackProcess, scratch, bytes)));

      progress('storage', 'interrupting an upload halfway');
      const interruptedBytes = 64 * 2 ** 20;
      const interrupted = await randomFile(scratch, interruptedBytes);
      const resent = await resentAfterInterruption(stack.apiUrl, stack.serviceRoleKey, interrupted, interruptedBytes);

      progress('storage', 'thumbnails of a 12 MP JPEG');
      const jpeg = await sharp({
        create: {
          width: 4000,
          height: 3000,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: 40 },
        },
      })
        .jpeg({ quality: 85 })
        .toBuffer();
      await service.storage.from('bench').upload('photo.jpg', jpeg, { contentType: 'image/jpeg', upsert: true });
      const renderAll = async () => {
        const started = performance.now();
        for (const [width, height] of SIZES) {
          const response = await fetch(
            `${stack.apiUrl}/storage/v1/render/image/authenticated/bench/photo.jpg?width=${width}&height=${height}&resize=cover`,
            { headers: { authorization: `Bearer ${stack.serviceRoleKey}` } },
          );
          await response.arrayBuffer();
        }
        return performance.now() - started;
      };
      const cold = await renderAll();
      const cached = await renderAll();
      const directStarted = performance.now();
      for (const [width, height] of SIZES) {
        await sharp(jpeg).rotate().resize({ width, height, fit: 'cover' }).jpeg({ quality: 80 }).toBuffer();
      }
      const direct = performance.now() - directStarted;
      return [
        ...uploadRows,
        {
          metric: `bytes re-sent after cutting a ${sizeName(interruptedBytes)} upload halfway`,
          unit: 'MiB',
          value: resent / 2 ** 20,
          baseline: CHUNK / 2 ** 20,
          baselineLabel: 'one chunk',
          goal: '≤ 1 chunk',
          higherIsBetter: false,
        },
        {
          metric: '6 thumbnails of a 12 MP JPEG, cold',
          unit: 'ms',
          value: cold,
          baseline: direct,
          baselineLabel: 'sharp directly',
          goal: '≤ 1.5× sharp',
          higherIsBetter: false,
        },
        {
          metric: '6 thumbnails of a 12 MP JPEG, cached',
          unit: 'ms',
          value: cached,
          baseline: direct,
          baselineLabel: 'sharp directly',
          goal: '≤ 0.1× sharp',
          higherIsBetter: false,
        },
      ];
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('storage', await run());
}
