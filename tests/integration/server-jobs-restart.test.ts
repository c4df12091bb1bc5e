import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import sharp from 'sharp';
import { clientFor } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { eventually, queryOnce } from '../helpers/checks.ts';
import { type RunningStack, freePort } from '@mediateca/stack';
import { ownStackHome } from '../helpers/own-stack.ts';

/**
 * The job worker across a stack restart, on a stack of its own whose Deno cannot reach any registry
 * (every proxy points at a closed port): jobs a stopped stack left pending or half-run are done after the
 * next start, and every function runs from the packages cached at install; and a job whose request the
 * functions runtime ends at a resource limit is run again by the queue, or failed for an admin's 'Reintentar'.
 */

const PROXY_KEYS = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy', 'NO_PROXY', 'no_proxy'] as const;
const savedEnv = Object.fromEntries(PROXY_KEYS.map((key) => [key, process.env[key]]));
let home: Awaited<ReturnType<typeof ownStackHome>>;
let stack: RunningStack | undefined;

const sql = <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
  queryOnce<T>(stack!.adminDbUrl, text, values);

beforeAll(async () => {
  const closed = `http://127.0.0.1:${await freePort()}`;
  for (const key of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy']) process.env[key] = closed;
  // The stack itself stays reachable; everything else (registry.npmjs.org, jsr.io, deno.land) is not.
  process.env.NO_PROXY = process.env.no_proxy = '127.0.0.1,localhost';
  home = await ownStackHome('mediateca-jobs-restart-');
});

afterAll(async () => {
  await stack?.stop();
  await home.remove();
  for (const key of PROXY_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

describe('server jobs across a restart, with no registry reachable', () => {
  it('finishes after the next start the jobs a stopped stack left pending or half-run', async () => {
    // First run: no worker, like a stack stopped before (or while) its worker got to the jobs.
    stack = await home.start({ seed: true, jobWorker: false });
    const service = clientFor(stack.apiUrl, stack.serviceRoleKey);
    const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2a9d8f' } })
      .png()
      .toBuffer();
    const files = [crypto.randomUUID(), crypto.randomUUID()].map((id) => ({ id, path: `${id}/foto.png` }));
    for (const file of files) {
      expect(
        (await service.storage.from('media').upload(file.path, image, { contentType: 'image/png' })).error,
      ).toBeNull();
      await sql(
        `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, uploader_id, extension)
         values ($1, 'foto.png', $2, 'foto.png', 'Foto', 'Photo', $3, 'png')`,
        [file.id, file.path, seedAccounts.UPLOADER.id],
      );
    }
    // The first one was claimed by a worker that was then stopped mid-job: its lease would last an hour.
    await sql(
      `update public.server_jobs set state = 'running', attempts = 1, locked_until = now() + interval '1 hour'
        where file_id = $1`,
      [files[0]!.id],
    );
    // And the second one, still pending, also had a run of the same work cut off by the stop.
    await sql(
      `insert into public.server_jobs (kind, dedupe_key, file_id, state, attempts, locked_until)
       values ('process_upload', 'process_upload:' || $1::text, $1::uuid, 'running', 1, now() + interval '1 hour')`,
      [files[1]!.id],
    );
    expect(
      (
        await sql<{ state: string }>(`select state from public.server_jobs where kind = 'process_upload' order by id`)
      ).map((job) => job.state),
    ).toEqual(['running', 'pending', 'running']);
    await stack.stop();

    stack = await home.start();
    const processed = await eventually(async () => {
      const rows = await sql<{ id: string; processing: boolean; width: number; checksum: string }>(
        `select id, processing, width, checksum from public.files where id = any($1::uuid[])`,
        [files.map((file) => file.id)],
      );
      return rows.every((row) => !row.processing) ? rows : undefined;
    });
    const checksum = createHash('sha256').update(image).digest('hex');
    expect(processed.map((row) => [row.width, row.checksum])).toEqual([
      [640, checksum],
      [640, checksum],
    ]);
    const jobs = await sql<{ file_id: string; state: string; attempts: number }>(
      `select file_id, state, attempts from public.server_jobs where kind = 'process_upload' order by id`,
    );
    expect(jobs).toEqual([
      { file_id: files[0]!.id, state: 'done', attempts: 2 },
      { file_id: files[1]!.id, state: 'done', attempts: 1 },
      // Superseded by the pending one at start instead of both running.
      { file_id: files[1]!.id, state: 'done', attempts: 1 },
    ]);
  }, 180_000);

  it('runs every function from the cached packages', async () => {
    const anon = clientFor(stack!.apiUrl, stack!.anonKey);
    const signedIn = await anon.auth.signInWithPassword({
      email: seedAccounts.ADMIN.email,
      password: seedAccounts.ADMIN.password,
    });
    expect(signedIn.error).toBeNull();
    const token = signedIn.data.session!.access_token;
    const call = async (name: string, body: unknown, bearer = token) => {
      const response = await fetch(`${stack!.apiUrl}/functions/v1/${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, apikey: stack!.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await call('staff-users', { action: 'list' })).toMatchObject({ status: 200 });
    expect(await call('public-feed', {})).toMatchObject({ status: 202 });
    expect(await call('trash-jobs', {})).toMatchObject({ status: 200 });
    expect(await call('process-upload', { fileId: crypto.randomUUID() })).toMatchObject({
      status: 404,
      body: { code: 'FILE_NOT_FOUND' },
    });
    expect(await call('run-jobs', {}, stack!.serviceRoleKey)).toMatchObject({ status: 200 });
    // Booted and answering with its own validation, not the runtime's BOOT_ERROR.
    const video = await call('video-info', {});
    expect(video.status).not.toBe(503);
    expect(video.body.code).not.toBe('BOOT_ERROR');
    const media = await fetch(`${stack!.apiUrl}/functions/v1/public-media/${crypto.randomUUID()}`);
    expect(media.status).toBe(404);
  }, 60_000);
  it("runs a job again after the runtime ended its request at a limit, and fails it for 'Reintentar' when it keeps happening", async () => {
    const running = stack!;
    const service = clientFor(running.apiUrl, running.serviceRoleKey);
    // A photo whose decoding alone takes far longer than the runtime's 25 ms between CPU samples: a request held
    // to 1 ms of CPU is stopped before it writes anything (a tiny one could finish between two samples).
    const image = await sharp({
      create: {
        width: 1600,
        height: 1200,
        channels: 3,
        background: '#e76f51',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg()
      .toBuffer();
    const addFile = async () => {
      const id = crypto.randomUUID();
      expect(
        (await service.storage.from('media').upload(`${id}/corte.jpg`, image, { contentType: 'image/jpeg' })).error,
      ).toBeNull();
      return id;
    };
    const insertFile = (id: string) =>
      sql(
        `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, uploader_id, extension)
         values ($1::uuid, 'corte.jpg', $1::text || '/corte.jpg', 'corte.jpg', 'Corte', 'Cut', $2, 'jpg')`,
        [id, seedAccounts.UPLOADER.id],
      );
    const jobOf = async (id: string) =>
      (
        await sql<{ id: string; state: string; attempts: number; last_error: string | null }>(
          `select id, state, attempts, last_error from public.server_jobs where file_id = $1`,
          [id],
        )
      )[0]!;
    // What the lease's 150 s would do: the job of a request that was cut off becomes claimable again.
    const expireLease = (jobId: string) =>
      sql(`update public.server_jobs set locked_until = now() - interval '1 second' where id = $1`, [jobId]);
    const cutOff = () =>
      eventually(async () =>
        running.functionUsage().some((entry) => entry.function === 'run-jobs' && entry.limit === 'CPUTime')
          ? true
          : undefined,
      );

    // Any run of the job now goes over the CPU limit.
    running.functionLimits.cpuMs = 1;
    const once = await addFile();
    try {
      await insertFile(once);
      await cutOff();
      const interrupted = await jobOf(once);
      expect(interrupted).toMatchObject({ state: 'running', attempts: 1 });
      running.functionLimits.cpuMs = 2000;
      await expireLease(interrupted.id);
      // The cut-off attempt may have written the file before the runtime stopped it: the job is what says the
      // work was taken up again and finished.
      const finished = await eventually(async () => {
        const current = await jobOf(once);
        return current.state === 'done' ? current : undefined;
      });
      expect(finished.attempts).toBe(2);
      const [processed] = await sql<{ processing: boolean; checksum: string }>(
        `select processing, checksum from public.files where id = $1`,
        [once],
      );
      expect(processed).toEqual({ processing: false, checksum: createHash('sha256').update(image).digest('hex') });

      // Cut off on every attempt: failed with a reason an admin reads, until 'Reintentar'.
      running.functionLimits.cpuMs = 1;
      const always = await addFile();
      await insertFile(always);
      const job = await jobOf(always);
      await sql(`update public.server_jobs set max_attempts = 2 where id = $1`, [job.id]);
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        await eventually(async () => ((await jobOf(always)).attempts === attempt ? true : undefined));
        await eventually(async () =>
          running.functionUsage().filter((entry) => entry.limit === 'CPUTime').length >= attempt + 1 ? true : undefined,
        );
        await expireLease(job.id);
      }
      const failed = await eventually(async () => {
        const current = await jobOf(always);
        return current.state === 'failed' ? current : undefined;
      });
      expect(failed.last_error).toBe(
        'El servidor interrumpió este trabajo (límite de CPU, memoria o tiempo) en cada intento',
      );
      running.functionLimits.cpuMs = 2000;
      const admin = clientFor(running.apiUrl, running.anonKey);
      await admin.auth.signInWithPassword({ email: seedAccounts.ADMIN.email, password: seedAccounts.ADMIN.password });
      const retried = await admin.rpc('retry_server_job', { p_id: Number(job.id) });
      expect(retried.error).toBeNull();
      await eventually(async () => ((await jobOf(always)).state === 'done' ? true : undefined));
    } finally {
      running.functionLimits.cpuMs = 2000;
    }
  }, 180_000);
});
