import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import * as tus from 'tus-js-client';
import type { StackEndpoints } from '../lib/stack-process.ts';
import { sleep, type Metrics } from './metrics.ts';
import type { Person } from './staff.ts';
import { UPLOAD_MAX_BYTES, UPLOAD_MIN_BYTES } from './options.ts';

/**
 * An upload as the upload screen sends it: TUS in 6 MiB chunks to the media bucket under a new file id, with
 * the app's retry delays, cut once on the way (as a closed laptop or a lost Wi-Fi would) and resumed from
 * where the server says it stopped; then the file's record, written as the app writes it.
 */
export interface SentUpload {
  fileId: string;
  bytes: number;
  sha256: string;
}

/** The app's chunk size (what Supabase Storage expects). */
const CHUNK_SIZE = 6 * 1024 * 1024;

/** The same delays as the app's TUS set-up: a chunk that fails is tried again up to six times. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000];

/** Random bytes of 5–50 MB on disk, with their SHA-256 (computed as they are written). */
async function randomFile(dir: string): Promise<{ file: string; bytes: number; sha256: string }> {
  const bytes = UPLOAD_MIN_BYTES + Math.floor(Math.random() * (UPLOAD_MAX_BYTES - UPLOAD_MIN_BYTES));
  const file = path.join(dir, `${crypto.randomUUID()}.zip`);
  const handle = await open(file, 'w');
  const hash = createHash('sha256');
  const block = Buffer.alloc(4 * 1024 * 1024);
  for (let written = 0; written < bytes; written += block.length) {
    const part = block.subarray(0, Math.min(block.length, bytes - written));
    randomFillSync(part);
    hash.update(part);
    await handle.write(part);
  }
  await handle.close();
  return { file, bytes, sha256: hash.digest('hex') };
}

/**
 * The files people will upload, written before anyone starts: they are on their disks already, and writing
 * them during the load would time this process's own work as the server's. Taken in turn; if the run needs
 * more, the rest are written on the way.
 */
export class UploadPool {
  private readonly ready: Array<{ file: string; bytes: number; sha256: string }> = [];

  constructor(private readonly dir: string) {}

  async fill(count: number) {
    for (let i = 0; i < count; i++) this.ready.push(await randomFile(this.dir));
  }

  async take() {
    return this.ready.shift() ?? randomFile(this.dir);
  }

  get bytes() {
    return this.ready.reduce((sum, file) => sum + file.bytes, 0);
  }
}

async function accessToken(person: Person): Promise<string> {
  const { data } = await person.client.auth.getSession();
  return data.session!.access_token;
}

/** Sends the bytes; resolves once the last chunk is stored. Cut once at a random point, resumed after 1–4 s. */
function sendByTus(
  stack: StackEndpoints,
  person: Person,
  metrics: Metrics,
  source: { file: string; bytes: number; objectName: string },
) {
  const cutAt = source.bytes * (0.2 + Math.random() * 0.6);
  let cut = false;
  const patchStarted = new WeakMap<object, number>();
  return new Promise<void>((resolve, reject) => {
    const upload: tus.Upload = new tus.Upload(createReadStream(source.file), {
      endpoint: `${stack.apiUrl}/storage/v1/upload/resumable`,
      chunkSize: CHUNK_SIZE,
      uploadSize: source.bytes,
      retryDelays: RETRY_DELAYS,
      headers: { apikey: stack.anonKey },
      metadata: {
        bucketName: 'media',
        objectName: source.objectName,
        contentType: 'application/zip',
        cacheControl: 'no-cache',
      },
      // A fresh token on every request, as the app does: a long upload outlives an access token.
      onBeforeRequest: async (request) => {
        request.setHeader('authorization', `Bearer ${await accessToken(person)}`);
        request.setHeader('x-upsert', 'false');
        if (request.getMethod() === 'PATCH') patchStarted.set(request, performance.now());
      },
      onAfterResponse: (request, response) => {
        const started = patchStarted.get(request);
        if (started !== undefined && response.getStatus() === 204)
          metrics.record('upload a 6 MiB chunk (TUS PATCH)', performance.now() - started);
      },
      onProgress: (sent) => {
        if (cut || sent < cutAt) return;
        cut = true;
        void upload.abort().then(async () => {
          await sleep(1000 + Math.random() * 3000);
          upload.start();
        }, reject);
      },
      onError: reject,
      onSuccess: () => resolve(),
    });
    upload.start();
  });
}

/**
 * One upload from a person's disk to a recorded file. A failure of the bytes or of the record is what the
 * person would see on the upload screen; null then.
 */
export async function uploadFile(
  stack: StackEndpoints,
  person: Person,
  metrics: Metrics,
  pool: UploadPool,
): Promise<SentUpload | null> {
  const { file, bytes, sha256 } = await pool.take();
  const fileId = crypto.randomUUID();
  const storedName = `${crypto.randomUUID()}.zip`;
  const originalName = `dossier-${person.name}-${fileId.slice(0, 8)}.zip`;
  try {
    try {
      await sendByTus(stack, person, metrics, { file, bytes, objectName: `${fileId}/${storedName}` });
    } catch (error) {
      metrics.personSaw('upload', error);
      return null;
    }
    const base = originalName.replace(/\.zip$/, '');
    const record = () =>
      person.client.from('files').insert({
        id: fileId,
        file_name: storedName,
        object_path: `${fileId}/${storedName}`,
        original_file_name: originalName,
        name_es: base,
        name_en: base,
        extension: 'zip',
        published: false,
        b2b: true,
        processing: true,
      });
    // A record refused while the database restarts is tried again, as the person presses 'Reintentar'; a
    // duplicate key then means the first try had been written after all.
    for (let attempt = 0; ; attempt++) {
      const { error } = await record();
      if (!error || (attempt > 0 && error.code === '23505')) break;
      metrics.personSaw('record upload', error);
      if (!metrics.faultWindow || attempt >= 5) return null;
      await sleep(3000);
    }
    return { fileId, bytes, sha256 };
  } finally {
    await rm(file, { force: true });
  }
}
