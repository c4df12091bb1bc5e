import { createReadStream } from 'node:fs';
import http from 'node:http';
import * as tus from 'tus-js-client';
import type { ClientAnswer, ClientTask, UploadTiming } from './upload-client.ts';

/**
 * The uploading side of the storage benchmark, in a process of its own as a person's browser is: it sends a
 * file either with tus-js-client (6 MiB chunks, one after another, as the app's upload screen does) or as
 * raw HTTP PUTs of the same chunks, and answers how long that took and the CPU it used.
 */

const send = (message: ClientAnswer) => process.send!(message);

/** Runs `work`, timing it with this process's CPU use. */
async function timed(work: (mark: { lastSent: number; lastAnswered: number }) => Promise<void>): Promise<UploadTiming> {
  const mark = { lastSent: 0, lastAnswered: 0 };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work(mark);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, lastRequestMs: mark.lastAnswered - mark.lastSent, cpuSeconds: (used.user + used.system) / 1e6 };
}

function tusUpload(task: Extract<ClientTask, { tus: unknown }>['tus']): Promise<UploadTiming> {
  return timed(
    (mark) =>
      new Promise<void>((resolve, reject) => {
        new tus.Upload(createReadStream(task.file), {
          endpoint: task.endpoint,
          headers: task.headers,
          uploadSize: task.size,
          chunkSize: task.chunkSize,
          retryDelays: [],
          metadata: task.metadata,
          // The PATCH that completes the upload answers only once the bytes are durable and the object published.
          onBeforeRequest: (request) => {
            if (request.getMethod() === 'PATCH') mark.lastSent = performance.now();
          },
          onAfterResponse: (request) => {
            if (request.getMethod() === 'PATCH') mark.lastAnswered = performance.now();
          },
          onError: reject,
          onSuccess: () => resolve(),
        }).start();
      }),
  );
}

/** One PUT of `length` bytes of the file from `offset`, resolved when the server has answered 204. */
function putChunk(url: string, file: string, offset: number, length: number, onSent: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const headers = { 'content-length': length, 'x-offset': offset };
    const req = http.request(url, { method: 'PUT', headers }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 204 ? resolve() : reject(new Error(`raw PUT answered ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.on('finish', onSent);
    createReadStream(file, { start: offset, end: offset + length - 1 }).pipe(req);
  });
}

/**
 * The file in chunks of the TUS upload's size, each sent once the previous one is answered, as tus-js-client
 * sends its PATCHes: the floor then pays the same round trip and the same wait for the disk per chunk.
 */
function rawPut(task: Extract<ClientTask, { put: unknown }>['put']): Promise<UploadTiming> {
  return timed(async (mark) => {
    for (let offset = 0; offset < task.size; offset += task.chunkSize) {
      await putChunk(task.url, task.file, offset, Math.min(task.chunkSize, task.size - offset), () => {
        mark.lastSent = performance.now();
      });
      mark.lastAnswered = performance.now();
    }
  });
}

process.on('message', (task: ClientTask | 'exit') => {
  if (task === 'exit') process.exit(0);
  const work = 'tus' in task ? tusUpload(task.tus) : rawPut(task.put);
  work.then(
    (timing) => send({ timing }),
    (error: unknown) => send({ failed: error instanceof Error ? error.message : String(error) }),
  );
});
send({ ready: true });
