import { randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import * as tus from 'tus-js-client';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { clientFor, progress, withStack } from './lib/harness.ts';
import { describeChunks, watchPatches } from './lib/patch-timeline.ts';

/**
 * Uploads: MB/s of a TUS upload (6 MiB chunks) through the gateway vs a raw loopback HTTP PUT of the same
 * bytes into the same disk with fsync. Thumbnails: the 6 sizes of a 12 MP JPEG through render/image, cold
 * and cached, vs sharp called directly on the same file.
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
  /** CPU-seconds of this Node process (server and client side both run in it) per GiB sent. */
  cpuPerGiB: number;
  /** Milliseconds from sending the last request of the upload to its answer. */
  lastRequestMs: number;
}

/** CPU-seconds this process spent during `work`, per GiB of `bytes`. */
async function measured<T>(bytes: number, work: () => Promise<T>): Promise<{ result: T; cpuPerGiB: number }> {
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return { result, cpuPerGiB: (used.user + used.system) / 1e6 / (bytes / 2 ** 30) };
}

/** The floor for an upload on this machine: stream an HTTP body to disk and fsync, nothing else. */
async function rawPut(file: string, targetDir: string): Promise<UploadRun> {
  const server = http.createServer(async (req, res) => {
    const target = path.join(targetDir, 'raw-put.bin');
    await pipeline(req, createWriteStream(target));
    const handle = await open(target, 'r+');
    await handle.sync();
    await handle.close();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  const size = (await stat(file)).size;
  const started = performance.now();
  let lastByteSent = 0;
  const { cpuPerGiB } = await measured(
    size,
    () =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, method: 'PUT', headers: { 'content-length': size } },
          (res) => {
            res.resume();
            res.on('end', () => resolve());
          },
        );
        req.on('error', reject);
        req.on('finish', () => (lastByteSent = performance.now()));
        createReadStream(file).pipe(req);
      }),
  );
  const finished = performance.now();
  server.close();
  return { rate: size / 1e6 / ((finished - started) / 1000), cpuPerGiB, lastRequestMs: finished - lastByteSent };
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

async function tusUpload(apiUrl: string, key: string, file: string, size: number, objectName: string) {
  const started = performance.now();
  let lastPatchSent = 0;
  let lastPatchMs = 0;
  const { result: rate, cpuPerGiB } = await measured(
    size,
    () =>
      new Promise<number>((resolve, reject) => {
        new tus.Upload(createReadStream(file), {
          endpoint: `${apiUrl}/storage/v1/upload/resumable`,
          headers: { authorization: `Bearer ${key}`, 'x-upsert': 'true' },
          uploadSize: size,
          chunkSize: CHUNK,
          retryDelays: [],
          metadata: { bucketName: 'bench', objectName, contentType: 'application/octet-stream' },
          // The PATCH that completes the upload answers only once the bytes are durable and the object published.
          onBeforeRequest: (request) => {
            if (request.getMethod() === 'PATCH') lastPatchSent = performance.now();
          },
          onAfterResponse: (request) => {
            if (request.getMethod() === 'PATCH') lastPatchMs = performance.now() - lastPatchSent;
          },
          onError: reject,
          onSuccess: () => resolve(size / 1e6 / ((performance.now() - started) / 1000)),
        }).start();
      }),
  );
  return { rate, cpuPerGiB, lastRequestMs: lastPatchMs } satisfies UploadRun;
}

/** Five alternated rounds: single rounds on this shared machine swing by ±25%. */
const UPLOAD_ROUNDS = 5;

export async function run(): Promise<BenchRow[]> {
  const bytes = isQuick() ? 64 * 1024 * 1024 : 1024 * 1024 * 1024;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'mediateca-bench-'));
  try {
    return await withStack(async (stack) => {
      const service = clientFor(stack, stack.serviceRoleKey);
      await service.storage.createBucket('bench', { public: false, fileSizeLimit: 2 * 1024 * 1024 * 1024 });
      progress('storage', `writing ${bytes / 2 ** 20} MiB of random bytes`);
      const file = await randomFile(scratch, bytes);
      // This machine's disk speed swings between runs (raw PUT from 220 to 340 MB/s within minutes), so
      // the raw baseline and the TUS upload alternate and each figure is the median of its rounds.
      const raws: UploadRun[] = [];
      const tusRuns: UploadRun[] = [];
      const patches = watchPatches();
      for (let round = 1; round <= UPLOAD_ROUNDS; round++) {
        progress('storage', `round ${round}/${UPLOAD_ROUNDS}: raw PUT + fsync, then TUS through the gateway`);
        raws.push(await rawPut(file, stack.dataDir));
        patches.take();
        tusRuns.push(await tusUpload(stack.apiUrl, stack.serviceRoleKey, file, bytes, 'upload.bin'));
        progress('storage', `  TUS: ${describeChunks(patches.take())}`);
      }
      patches.stop();
      const describe = (runs: UploadRun[]) =>
        runs.map(
          (r) =>
            `${r.rate.toFixed(0)} MB/s, ${r.cpuPerGiB.toFixed(1)} CPU-s/GiB, last ${r.lastRequestMs.toFixed(0)} ms`,
        );
      progress('storage', `raw ${describe(raws).join('; ')}`);
      progress('storage', `TUS ${describe(tusRuns).join('; ')}`);
      const median = (runs: UploadRun[], key: keyof UploadRun) =>
        percentile(
          runs.map((run) => run[key]),
          50,
        );
      progress('storage', 'interrupting an upload halfway');
      const resent = await resentAfterInterruption(stack.apiUrl, stack.serviceRoleKey, file, bytes);

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
      const label = `${bytes / 2 ** 20} MiB`;
      return [
        {
          metric: `TUS upload ${label}, 6 MiB chunks (median of ${UPLOAD_ROUNDS} rounds)`,
          unit: 'MB/s',
          value: median(tusRuns, 'rate'),
          baseline: median(raws, 'rate'),
          baselineLabel: 'raw PUT + fsync',
          goal: '≥ 0.85× raw',
          higherIsBetter: true,
        },
        {
          metric: `TUS upload ${label}: the completing PATCH, sent → answered (median)`,
          unit: 'ms',
          value: median(tusRuns, 'lastRequestMs'),
          baseline: median(raws, 'lastRequestMs'),
          baselineLabel: 'raw PUT: last byte → answer',
          goal: '< 100 ms',
          higherIsBetter: false,
        },
        {
          metric: `TUS upload ${label}: CPU-seconds per GiB (stack and client, one process; median)`,
          unit: 'CPU-s/GiB',
          value: median(tusRuns, 'cpuPerGiB'),
          baseline: median(raws, 'cpuPerGiB'),
          baselineLabel: 'raw PUT + fsync',
          goal: '—',
          higherIsBetter: false,
        },
        {
          metric: `bytes re-sent after cutting a ${label} upload halfway`,
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
