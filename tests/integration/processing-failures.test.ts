import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as tus from 'tus-js-client';
import sharp from 'sharp';
import type pg from 'pg';
import { adminDb, signedInSeed, stackInfo } from '../helpers/clients.ts';
import { eventually } from '../helpers/checks.ts';

/**
 * Uploads whose bytes can never be processed (a corrupt JPEG, random bytes named .jpg, an empty file) end
 * within seconds in 'No se pudo procesar' with a Spanish reason, after ONE attempt: deletable, refused by
 * every way of publishing, found by the files screen's filter. A transient failure is retried, and only when
 * its attempts are used up does the file reach the same state. Uploaded the way the app does: TUS with the
 * uploader's token, then the file record.
 */

let db: pg.Client;
let admin: SupabaseClient;
let uploader: SupabaseClient;
let uploaderToken: string;

const REASONS = {
  empty: 'El archivo está vacío (0 bytes). Sube el archivo con su contenido.',
  notImage: 'El contenido del archivo no es una imagen JPEG ni PNG, aunque su nombre lo indique.',
  unreadable: 'La imagen está dañada y no se puede leer. Sube una copia sana del archivo.',
};

function tusUpload(objectName: string, bytes: Buffer, contentType: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(bytes, {
      endpoint: `${stackInfo().apiUrl}/storage/v1/upload/resumable`,
      headers: { authorization: `Bearer ${uploaderToken}` },
      metadata: { bucketName: 'media', objectName, contentType, cacheControl: 'no-cache' },
      chunkSize: 6 * 1024 * 1024,
      retryDelays: [],
      onError: reject,
      onSuccess: () => resolve(),
    });
    upload.start();
  });
}

/** Uploads `bytes` as `name` and writes its record as the upload screen does; the new file's id. */
async function uploadAndRecord(name: string, bytes: Buffer, contentType: string): Promise<string> {
  const fileId = crypto.randomUUID();
  const extension = name.split('.').pop()!;
  const objectPath = `${fileId}/${crypto.randomUUID()}.${extension}`;
  await tusUpload(objectPath, bytes, contentType);
  const base = name.replace(/\.[^.]+$/, '');
  const { error } = await uploader.from('files').insert({
    id: fileId,
    file_name: objectPath.split('/')[1],
    object_path: objectPath,
    original_file_name: name,
    name_es: base,
    name_en: base,
    extension,
    published: false,
    b2b: true,
    processing: true,
  });
  if (error) throw error;
  return fileId;
}

interface FinalState {
  processing: boolean;
  processing_error: string | null;
  published: boolean;
  job_state: string;
  attempts: number;
  failed_permanently: boolean;
}

async function finalState(fileId: string): Promise<FinalState> {
  return eventually(async () => {
    const { rows } = await db.query<FinalState>(
      `select f.processing, f.processing_error, f.published, j.state as job_state, j.attempts, j.failed_permanently
         from public.files f join public.server_jobs j on j.file_id = f.id and j.kind = 'process_upload'
        where f.id = $1 and j.state in ('done', 'failed')`,
      [fileId],
    );
    return rows[0];
  });
}

beforeAll(async () => {
  db = await adminDb();
  admin = await signedInSeed('ADMIN');
  uploader = await signedInSeed('UPLOADER');
  uploaderToken = (await uploader.auth.getSession()).data.session!.access_token;
});

afterAll(async () => {
  await db?.end();
});

describe('an upload that cannot be processed', () => {
  const cases: Array<{ what: string; name: string; bytes: () => Promise<Buffer>; type: string; reason: string }> = [
    {
      what: 'a corrupt JPEG (a JPEG header, then noise)',
      name: 'foto-dañada.jpg',
      bytes: async () => {
        const good = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0084D8' } })
          .jpeg()
          .toBuffer();
        // The JFIF header survives (file-type says image/jpeg); every segment after it is noise.
        return Buffer.concat([good.subarray(0, 20), Buffer.alloc(4096, 0x5a)]);
      },
      type: 'image/jpeg',
      reason: REASONS.unreadable,
    },
    {
      what: 'random bytes named .jpg',
      name: 'no-es-una-foto.jpg',
      bytes: async () => Buffer.from(crypto.getRandomValues(new Uint8Array(8192))),
      type: 'image/jpeg',
      reason: REASONS.notImage,
    },
    {
      what: 'an empty file, sent by TUS as the app would (Storage answers 201 as hosted does)',
      name: 'vacío.pdf',
      bytes: async () => Buffer.alloc(0),
      type: 'application/pdf',
      reason: REASONS.empty,
    },
  ];

  for (const { what, name, bytes, type, reason } of cases) {
    it(`${what}: 'No se pudo procesar' after one attempt, with its reason`, async () => {
      const started = Date.now();
      const fileId = await uploadAndRecord(name, await bytes(), type);
      const state = await finalState(fileId);
      expect(state).toEqual({
        processing: false,
        processing_error: reason,
        published: false,
        job_state: 'failed',
        attempts: 1,
        failed_permanently: true,
      });
      expect(Date.now() - started).toBeLessThan(60_000);
    });
  }

  it('can be deleted alone and in bulk, and never published, single or bulk', async () => {
    const [one, two] = [
      await uploadAndRecord('rota-1.jpg', Buffer.from('not a picture at all'), 'image/jpeg'),
      await uploadAndRecord('rota-2.jpg', Buffer.from('not a picture either'), 'image/jpeg'),
    ];
    await finalState(one);
    await finalState(two);

    const single = await admin.from('files').update({ published: true }).eq('id', one);
    expect(single.error).toMatchObject({
      code: 'P0001',
      hint: 'FILE_PROCESSING_FAILED',
      message: 'No se puede publicar «rota-1» porque no se pudo procesar. Sustituye el archivo para poder publicarlo.',
    });
    const bulk = await admin.rpc('publish_files', { p_published: true, p_file_ids: [one, two] });
    expect(bulk.error).toMatchObject({ code: 'P0001', hint: 'FILE_PROCESSING_FAILED' });

    // The files screen's filter finds them.
    const filtered = await admin
      .rpc('search_files', { p_filter: { processing: 'failed', query: 'rota' }, p_limit: 10 })
      .select('id');
    expect(filtered.error).toBeNull();
    expect((filtered.data as Array<{ id: string }>).map((row) => row.id).sort()).toEqual([one, two].sort());
    const counted = await admin.rpc('count_files', { p_filter: { processing: 'failed', query: 'rota' } });
    expect(counted.error).toBeNull();
    expect(counted.data).toBe(2);

    // Deletable at once (no 'No se pueden borrar archivos en proceso'), one and then in bulk.
    expect((await admin.rpc('delete_files', { p_file_ids: [one] })).error).toBeNull();
    expect((await admin.rpc('delete_files', { p_filter: { processing: 'failed', query: 'rota' } })).data).toBe(1);
  });

  it('is processed again, and publishable, once its object is replaced', async () => {
    const fileId = await uploadAndRecord('reemplazar.jpg', Buffer.from('broken'), 'image/jpeg');
    await finalState(fileId);
    const picture = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#2a9d8f' } })
      .jpeg()
      .toBuffer();
    const replacement = `${fileId}/${crypto.randomUUID()}.jpg`;
    await tusUpload(replacement, picture, 'image/jpeg');
    expect((await admin.from('files').update({ object_path: replacement }).eq('id', fileId)).error).toBeNull();
    const processed = await eventually(async () => {
      const { rows } = await db.query<{ processing: boolean; processing_error: string | null; width: number }>(
        `select processing, processing_error, width from public.files where id = $1 and not processing`,
        [fileId],
      );
      return rows[0];
    });
    expect(processed).toEqual({ processing: false, processing_error: null, width: 32 });
    expect((await admin.from('files').update({ published: true }).eq('id', fileId)).error).toBeNull();
  });
});

describe('a transient failure', () => {
  it('is retried with backoff, and ends the file in the same clear state when its attempts run out', async () => {
    // A file whose object is not in Storage: the read fails the way a Storage outage does (not the bytes' fault).
    const fileId = crypto.randomUUID();
    await db.query(
      `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, uploader_id, extension)
       values ($1, 'x.png', $2, 'x.png', 'Sin objeto', 'Sin objeto', (select id from auth.users where email = 'admin@mediateca.local'), 'png')`,
      [fileId, `${fileId}/x.png`],
    );
    const retried = await eventually(async () => {
      const { rows } = await db.query<{ state: string; attempts: number; failed_permanently: boolean }>(
        `select state, attempts, failed_permanently from public.server_jobs
          where file_id = $1 and kind = 'process_upload' and attempts >= 1 and state = 'pending'`,
        [fileId],
      );
      return rows[0];
    });
    expect(retried).toEqual({ state: 'pending', attempts: 1, failed_permanently: false });
    const during = await db.query(`select processing, processing_error from public.files where id = $1`, [fileId]);
    expect(during.rows[0]).toEqual({
      processing: true,
      processing_error: 'No se pudo leer el archivo en el servidor. Se volverá a intentar automáticamente.',
    });

    // Its last attempt, without waiting for the backoff: the runner's claim and finish, as the worker does them.
    await db.query(`update public.server_jobs set attempts = max_attempts - 1, run_after = now() where file_id = $1`, [
      fileId,
    ]);
    const final = await eventually(async () => {
      const { rows } = await db.query<{
        processing: boolean;
        processing_error: string;
        state: string;
        failed_permanently: boolean;
      }>(
        `select f.processing, f.processing_error, j.state, j.failed_permanently from public.files f
           join public.server_jobs j on j.file_id = f.id where f.id = $1 and j.state = 'failed'`,
        [fileId],
      );
      return rows[0];
    });
    expect(final).toEqual({
      processing: false,
      processing_error:
        'No se pudo procesar el archivo tras varios intentos. Vuelve a subirlo o pide a un administrador que lo reintente.',
      state: 'failed',
      failed_permanently: false,
    });

    // 'Reintentar' gives it another go: processing again, no reason shown meanwhile.
    const { rows } = await db.query<{ id: string }>(`select id from public.server_jobs where file_id = $1`, [fileId]);
    expect((await admin.rpc('retry_server_job', { p_id: Number(rows[0]!.id) })).error).toBeNull();
    const again = await db.query(`select processing, processing_error from public.files where id = $1`, [fileId]);
    expect(again.rows[0]).toMatchObject({ processing: true });
    await db.query(`delete from public.files where id = $1`, [fileId]);
  });
});
