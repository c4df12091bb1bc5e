import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as tus from 'tus-js-client';
import sharp from 'sharp';
import type pg from 'pg';
import { adminDb, client, stackInfo } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { eventually } from '../helpers/checks.ts';
import { readFeed } from '../helpers/feed.ts';

/**
 * Server-owned work: triggers queue jobs in the transaction of each change and the stack's job
 * worker runs them through the run-jobs function, with no app and no browser involved anywhere here.
 */

let admin: SupabaseClient;
let uploader: SupabaseClient;
let service: SupabaseClient;
let db: pg.Client;

async function signIn(role: 'ADMIN' | 'UPLOADER') {
  const supabase = client('anon');
  const { email, password } = seedAccounts[role];
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return supabase;
}

async function jobsOf(fileId: string) {
  const { rows } = await db.query<{
    id: string;
    kind: string;
    state: string;
    attempts: number;
    last_error: string | null;
    backoff_seconds: number;
  }>(
    `select id, kind, state, attempts, last_error, extract(epoch from run_after - updated_at)::int as backoff_seconds
       from public.server_jobs where file_id = $1 order by id`,
    [fileId],
  );
  return rows;
}

const feed = () => readFeed(stackInfo().apiUrl);

async function noFeedJobPending() {
  await eventually(async () => {
    const { rows } = await db.query(
      `select 1 from public.server_jobs where dedupe_key = 'update_feed' and state in ('pending', 'running')`,
    );
    return rows.length === 0 ? true : undefined;
  });
}

function tusUpload(objectName: string, bytes: Buffer, token: string, contentType: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(bytes, {
      endpoint: `${stackInfo().apiUrl}/storage/v1/upload/resumable`,
      headers: { authorization: `Bearer ${token}` },
      metadata: { bucketName: 'media', objectName, contentType, cacheControl: 'no-cache' },
      chunkSize: 256 * 1024,
      retryDelays: [0],
      onError: reject,
      onSuccess: () => resolve(),
    });
    upload.start();
  });
}

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#0084D8' } })
    .jpeg()
    .toBuffer();

beforeAll(async () => {
  admin = await signIn('ADMIN');
  uploader = await signIn('UPLOADER');
  service = client('service_role');
  db = await adminDb();
}, 120_000);

afterAll(async () => {
  await db?.end();
});

describe('server-owned file columns', () => {
  it('stores the real uploader, date and size whatever a direct PostgREST insert claims', async () => {
    const fileId = crypto.randomUUID();
    const objectPath = `${fileId}/${crypto.randomUUID()}.txt`;
    const bytes = 'diecinueve bytes!!!';
    expect(
      (await uploader.storage.from('media').upload(objectPath, bytes, { contentType: 'text/plain' })).error,
    ).toBeNull();
    const forged = await uploader.from('files').insert({
      id: fileId,
      file_name: objectPath.split('/')[1]!,
      object_path: objectPath,
      original_file_name: 'notas.txt',
      name_es: 'notas',
      name_en: 'notes',
      size: 987_654_321,
      uploaded_on: '2001-01-01T00:00:00Z',
      uploader_email: 'otra.persona@example.com',
      extension: 'txt',
    });
    expect(forged.error).toBeNull();
    const { rows } = await db.query(
      `select size, uploader_id, uploader_email, mime_type, uploaded_on > now() - interval '1 minute' as recent
         from public.files where id = $1`,
      [fileId],
    );
    expect(rows[0]).toEqual({
      size: String(Buffer.byteLength(bytes)),
      uploader_id: seedAccounts.UPLOADER.id,
      uploader_email: seedAccounts.UPLOADER.email,
      mime_type: 'text/plain',
      recent: true,
    });

    // Posing as someone else is refused outright, not silently corrected.
    const otherId = crypto.randomUUID();
    const asAdmin = await uploader.from('files').insert({
      id: otherId,
      file_name: 'x.txt',
      object_path: `${otherId}/x.txt`,
      original_file_name: 'x.txt',
      name_es: 'x',
      name_en: 'x',
      uploader_id: seedAccounts.ADMIN.id,
    });
    expect(asAdmin.error?.code).toBe('42501');
  });

  it('keeps the upload date on a replacement and takes uploader and size from the session and the new object', async () => {
    const fileId = crypto.randomUUID();
    const first = `${fileId}/primera.txt`;
    const second = `${fileId}/${crypto.randomUUID()}.txt`;
    for (const [path, text] of [
      [first, 'uno'],
      [second, 'versión número dos'],
    ] as const) {
      expect((await service.storage.from('media').upload(path, text, { contentType: 'text/plain' })).error).toBeNull();
    }
    await db.query(
      `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, size, uploaded_on,
                                 uploader_id, uploader_email, extension, processing)
       values ($1, 'primera.txt', $2, 'primera.txt', 'r', 'r', 3, now() - interval '30 days', $3, $4, 'txt', false)`,
      [fileId, first, seedAccounts.ADMIN.id, seedAccounts.ADMIN.email],
    );
    const replaced = await admin
      .from('files')
      .update({ object_path: second, file_name: 'inventado.txt', size: 5, uploaded_on: new Date().toISOString() })
      .eq('id', fileId);
    expect(replaced.error).toBeNull();
    const { rows } = await db.query(
      `select size, file_name, processing, uploaded_on < now() - interval '29 days' as kept_date from public.files where id = $1`,
      [fileId],
    );
    expect(rows[0]).toEqual({
      size: String(Buffer.byteLength('versión número dos')),
      file_name: second.split('/')[1],
      processing: true,
      kept_date: true,
    });

    const elsewhere = await admin
      .from('files')
      .update({ object_path: `${crypto.randomUUID()}/x.txt` })
      .eq('id', fileId);
    expect(elsewhere.error?.hint).toBe('INVALID_OBJECT_PATH');
  });
});

describe('jobs queued by the database, run by the server', () => {
  it('processes a TUS upload recorded from SQL: checksum, dimensions, warm thumbnails, and the feed lists it', async () => {
    const bytes = await jpeg(1000, 600);
    const fileId = crypto.randomUUID();
    const objectPath = `${fileId}/${crypto.randomUUID()}.jpg`;
    const token = (await uploader.auth.getSession()).data.session!.access_token;
    await tusUpload(objectPath, bytes, token, 'image/jpeg');
    await db.query(
      `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, size,
                                 uploader_id, uploader_email, extension, published)
       values ($1, $2, $3, 'mar.jpg', 'Mar', 'Sea', 0, $4, $5, 'jpg', true)`,
      [fileId, objectPath.split('/')[1], objectPath, seedAccounts.UPLOADER.id, seedAccounts.UPLOADER.email],
    );

    const row = await eventually(async () => {
      const { rows } = await db.query('select * from public.files where id = $1', [fileId]);
      return rows[0]?.processing === false ? rows[0] : undefined;
    });
    expect(row).toMatchObject({
      width: 1000,
      height: 600,
      size: String(bytes.length),
      mime_type: 'image/jpeg',
      checksum: createHash('sha256').update(bytes).digest('hex'),
      processing_error: null,
    });
    // The worker records the job as done in a call of its own, after writing the file's row.
    const jobs = await eventually(async () => {
      const current = await jobsOf(fileId);
      return current.some((job) => job.state === 'running') ? undefined : current;
    });
    expect(jobs.map((job) => [job.kind, job.state, job.attempts])).toEqual([['process_upload', 'done', 1]]);
    const thumbnail = await fetch(
      `${stackInfo().apiUrl}/storage/v1/render/image/authenticated/media/${objectPath}?width=400&height=300&resize=cover`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(thumbnail.headers.get('x-cache')).toBe('HIT');

    // The insert and the processing each mark the file's page: wait for the write that has the measured size.
    const listed = await eventually(async () => {
      // The index may not exist yet on a fresh stack: the first update writes it.
      const current = await feed().catch(() => ({ files: [] as Array<{ id: string; size: number }> }));
      const entry = current.files.find((file) => file.id === fileId);
      return entry && entry.size !== 0 ? entry : undefined;
    });
    expect(listed.size).toBe(bytes.length);
  }, 90_000);

  it('publishing 500 files in one bulk call queues one feed job, which writes their pages in steps and lists them all', async () => {
    const ids = Array.from({ length: 500 }, () => crypto.randomUUID());
    await db.query(
      `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, size, extension, processing)
       select id, 'lote.pdf', id || '/lote.pdf', 'lote.pdf', 'Lote', 'Batch', 10, 'pdf', false from unnest($1::uuid[]) id`,
      [ids],
    );
    try {
      await noFeedJobPending();
      const { rows: before } = await db.query(`select coalesce(max(id), 0) as last from public.server_jobs`);
      const published = await admin.rpc('publish_files', { p_published: true, p_file_ids: ids });
      expect(published.error).toBeNull();
      expect(published.data).toBe(500);
      const { rows: queued } = await db.query(
        `select id from public.server_jobs where dedupe_key = 'update_feed' and id > $1`,
        [before[0].last],
      );
      expect(queued).toHaveLength(1);

      await eventually(async () => {
        const { rows } = await db.query(`select state from public.server_jobs where id = $1`, [queued[0].id]);
        return rows[0].state === 'done' ? true : undefined;
      });
      const { rows: after } = await db.query(
        `select count(*)::int as n from public.server_jobs where dedupe_key = 'update_feed' and id > $1`,
        [before[0].last],
      );
      expect(after[0].n).toBe(1);
      const listed = new Set((await feed()).files.map((file) => file.id));
      expect(ids.filter((id) => !listed.has(id))).toEqual([]);
    } finally {
      // Out of the way of other test files, without 500 trash moves for objects that never existed. Their
      // search rows go first, with triggers on, so the search bitmaps (and the totals read from them) follow.
      await db.query(`delete from private.file_search where file_id = any($1::uuid[])`, [ids]);
      await db.query(`set session_replication_role = replica`);
      await db.query(`delete from public.files where id = any($1::uuid[])`, [ids]);
      await db.query(`set session_replication_role = default`);
      await db.query(`select public.rebuild_public_feed()`);
    }
  }, 120_000);

  it('moves the objects of deleted and replaced files from media to the trash with no client call', async () => {
    const deletedId = crypto.randomUUID();
    const deletedPath = `${deletedId}/borrado.txt`;
    const replacedId = crypto.randomUUID();
    const oldPath = `${replacedId}/antigua.txt`;
    const newPath = `${replacedId}/${crypto.randomUUID()}.txt`;
    for (const [path, text] of [
      [deletedPath, 'se va a la papelera'],
      [oldPath, 'versión antigua'],
      [newPath, 'versión nueva'],
    ] as const) {
      expect((await service.storage.from('media').upload(path, text, { contentType: 'text/plain' })).error).toBeNull();
    }
    await db.query(
      `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, size, uploader_id,
                                 extension, processing)
       values ($1, 'borrado.txt', $2, 'borrado.txt', 'b', 'b', 19, $5, 'txt', false),
              ($3, 'antigua.txt', $4, 'antigua.txt', 'a', 'a', 15, $5, 'txt', false)`,
      [deletedId, deletedPath, replacedId, oldPath, seedAccounts.UPLOADER.id],
    );

    expect((await admin.rpc('delete_files', { p_file_ids: [deletedId] })).error).toBeNull();
    expect((await uploader.from('files').update({ object_path: newPath }).eq('id', replacedId)).error).toBeNull();

    for (const [path, text] of [
      [deletedPath, 'se va a la papelera'],
      [oldPath, 'versión antigua'],
    ] as const) {
      await eventually(async () => ((await service.storage.from('trash').exists(path)).data ? true : undefined));
      expect((await service.storage.from('media').exists(path)).data).toBe(false);
      expect(await (await service.storage.from('trash').download(path)).data!.text()).toBe(text);
    }
    // The replacement itself is processed from its new object.
    const replaced = await eventually(async () => {
      const { rows } = await db.query('select processing, size, checksum from public.files where id = $1', [
        replacedId,
      ]);
      return rows[0].processing === false ? rows[0] : undefined;
    });
    expect(replaced.checksum).toBe(createHash('sha256').update('versión nueva').digest('hex'));
  }, 90_000);

  it('moves a deleted file to the trash at once while an object it could not move waits out its backoff', async () => {
    // An object whose move cannot succeed (its destination bucket does not exist): the trash run fails and is
    // retried after a backoff.
    const stuckPath = `${crypto.randomUUID()}/atascado.txt`;
    expect(
      (await service.storage.from('media').upload(stuckPath, 'x', { contentType: 'text/plain' })).error,
    ).toBeNull();
    const { rows: stuckRows } = await db.query<{ id: string }>(
      `insert into public.trash_jobs (file_id, object_path, trash_bucket_id, trash_path)
       values ($1, $2, 'papelera-inexistente', $2) returning id`,
      [crypto.randomUUID(), stuckPath],
    );
    const stuckId = stuckRows[0]!.id;
    try {
      const backingOff = await eventually(async () => {
        const { rows } = await db.query<{ attempts: number; run_after: Date; last_error: string | null }>(
          `select attempts, run_after, last_error from public.server_jobs
            where dedupe_key = 'trash_objects' and state = 'pending' and run_after > now() + interval '10 seconds'`,
        );
        return rows[0];
      });
      expect(backingOff.last_error).toMatch(/could not be moved to the trash/);

      const fileId = crypto.randomUUID();
      const objectPath = `${fileId}/borrado.txt`;
      expect(
        (await service.storage.from('media').upload(objectPath, 'a la papelera', { contentType: 'text/plain' })).error,
      ).toBeNull();
      await db.query(
        `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, size, uploader_id,
                                   extension, processing)
         values ($1, 'borrado.txt', $2, 'borrado.txt', 'b', 'b', 13, $3, 'txt', false)`,
        [fileId, objectPath, seedAccounts.UPLOADER.id],
      );
      expect((await admin.rpc('delete_files', { p_file_ids: [fileId] })).error).toBeNull();

      const moved = await eventually(async () => {
        const { rows } = await db.query<{ done_at: Date | null }>(
          `select done_at from public.trash_jobs where file_id = $1 and not pending`,
          [fileId],
        );
        return rows[0];
      });
      // Moved before the backoff ended, by a run the deletion brought forward; the stuck object is still waiting.
      expect(moved.done_at!.getTime()).toBeLessThan(backingOff.run_after.getTime());
      expect(await (await service.storage.from('trash').download(objectPath)).data!.text()).toBe('a la papelera');
      const { rows: stuck } = await db.query(`select pending, attempts from public.trash_jobs where id = $1`, [
        stuckId,
      ]);
      expect(stuck[0]).toMatchObject({ pending: true, attempts: expect.any(Number) });
      expect(stuck[0].attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await db.query(`update public.trash_jobs set pending = false where id = $1`, [stuckId]);
      await service.storage.from('media').remove([stuckPath]);
    }
  }, 90_000);

  it('retries a failing job with exponential backoff, then leaves it failed with an error admins can read and retry', async () => {
    const fileId = crypto.randomUUID();
    await db.query(
      `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, size, uploader_id, extension)
       values ($1::uuid, 'nunca.png', $1::text || '/nunca.png', 'nunca.png', 'n', 'n', 1, $2, 'png')`,
      [fileId, seedAccounts.UPLOADER.id],
    );
    await db.query(`update public.server_jobs set max_attempts = 3 where file_id = $1`, [fileId]);

    const expectedBackoff = [30, 60];
    for (const [index, seconds] of expectedBackoff.entries()) {
      const job = await eventually(async () => {
        const [current] = await jobsOf(fileId);
        return current?.attempts === index + 1 && current.state === 'pending' ? current : undefined;
      });
      expect(job.backoff_seconds).toBe(seconds);
      expect(job.last_error).toMatch(/could not be read \(400\)/);
      // Time travel instead of waiting out the backoff.
      await db.query(`update public.server_jobs set run_after = now() where id = $1`, [job.id]);
    }
    const failed = await eventually(async () => {
      const [current] = await jobsOf(fileId);
      return current?.state === 'failed' ? current : undefined;
    });
    expect(failed.attempts).toBe(3);

    const seenByAdmin = await admin.from('server_jobs').select('state, last_error').eq('file_id', fileId).single();
    expect(seenByAdmin.data).toEqual({ state: 'failed', last_error: expect.stringMatching(/could not be read/) });
    const seenByUploader = await uploader.from('server_jobs').select('id').eq('file_id', fileId);
    expect(seenByUploader.data).toEqual([]);
    const file = await admin.from('files').select('processing, processing_error').eq('id', fileId).single();
    // Its tries used up, the file is no longer 'processing': it says why, in Spanish.
    expect(file.data).toEqual({
      processing: false,
      processing_error:
        'No se pudo procesar el archivo tras varios intentos. Vuelve a subirlo o pide a un administrador que lo reintente.',
    });

    expect((await uploader.rpc('retry_server_job', { p_id: Number(failed.id) })).error?.code).toBe('42501');
    expect((await uploader.rpc('claim_server_jobs', {})).error?.code).toBe('42501');
    const retried = await admin.rpc('retry_server_job', { p_id: Number(failed.id) });
    expect(retried.error).toBeNull();
    expect(retried.data).toMatchObject({ state: 'pending', attempts: 0, last_error: expect.any(String) });
    // Out of the way: its file goes (and the job, finding no file, ends done).
    await db.query(`delete from public.files where id = $1`, [fileId]);
  }, 90_000);

  it('never hands one job to two workers at once', async () => {
    const ids = Array.from({ length: 40 }, () => crypto.randomUUID());
    const { rows: queued } = await db.query<{ id: string }>(
      `insert into public.server_jobs (kind, dedupe_key, file_id)
       select 'process_upload', 'claim-test:' || f, f from unnest($1::uuid[]) f returning id`,
      [ids],
    );
    const workers = [await adminDb(), await adminDb()];
    try {
      await Promise.all(workers.map((worker) => worker.query('begin')));
      const claims = await Promise.all(
        workers.map(async (worker) =>
          (await worker.query<{ id: string }>(`select id from public.claim_server_jobs(10)`)).rows.map((r) => r.id),
        ),
      );
      expect(claims[0]!.length + claims[1]!.length).toBeGreaterThan(0);
      expect(claims[0]!.filter((id) => claims[1]!.includes(id))).toEqual([]);
      await Promise.all(workers.map((worker) => worker.query('rollback')));
    } finally {
      await Promise.all(workers.map((worker) => worker.end()));
    }
    // Every one of them (files that no longer exist) ends done, each run exactly once.
    const finished = await eventually(async () => {
      const { rows } = await db.query<{ state: string; attempts: number }>(
        `select state, attempts from public.server_jobs where id = any($1::bigint[])`,
        [queued.map((row) => row.id)],
      );
      return rows.every((row) => row.state === 'done') ? rows : undefined;
    });
    expect(finished.every((row) => row.attempts === 1)).toBe(true);
  }, 60_000);
  it('wakes the worker when a job is due, not when a claim or a finish changes nothing to run', async () => {
    // Each statement runs on a connection of its own, so the notifications it sends are told apart from those
    // of other test files sharing the stack by the sending backend's pid.
    const listener = await adminDb();
    const writer = await adminDb();
    try {
      const received: { pid: number; payload: string | undefined }[] = [];
      listener.on('notification', (message) => received.push({ pid: message.processId, payload: message.payload }));
      await listener.query('listen server_jobs');
      const writerPid = (await writer.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      // The job triggers notify with an empty payload; the test's own barrier says so.
      const fromWriter = () => received.filter(({ pid, payload }) => pid === writerPid && payload !== 'barrier').length;
      const barrierSeen = () => received.some(({ pid, payload }) => pid === writerPid && payload === 'barrier');
      // What an empty claim and a finish do to the table: statement triggers fire even for zero rows, and the
      // old trigger's notice woke the worker into another claim, about 80 times a second while idle.
      await writer.query(`update public.server_jobs set state = 'running' where false`);
      await writer.query(`update public.server_jobs set state = 'done' where false`);
      const delayedKey = `notify-test-delayed:${crypto.randomUUID()}`;
      await writer.query(
        `insert into public.server_jobs (kind, dedupe_key, run_after) values ('update_feed', $1, now() + interval '1 hour')`,
        [delayedKey],
      );
      // One session's notifications arrive in commit order: once the barrier sent after those statements is
      // here, any notification they sent would be here too.
      await writer.query(`select pg_notify('server_jobs', 'barrier')`);
      await eventually(async () => (barrierSeen() ? true : undefined));
      expect(fromWriter()).toBe(0);
      await writer.query(`insert into public.server_jobs (kind, dedupe_key) values ('update_feed', $1)`, [
        `notify-test-due:${crypto.randomUUID()}`,
      ]);
      await eventually(async () => (fromWriter() === 1 ? true : undefined));
      await writer.query(`delete from public.server_jobs where dedupe_key = $1`, [delayedKey]);
    } finally {
      await Promise.all([listener.end(), writer.end()]);
    }
  }, 30_000);
});
