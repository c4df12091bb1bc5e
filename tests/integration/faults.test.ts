import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import * as tus from 'tus-js-client';
import type { SupabaseClient } from '@supabase/supabase-js';
import { clientFor } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { seedAccounts, seedTags } from '../helpers/seed.ts';
import { eventually, queryOnce, sha256 } from '../helpers/checks.ts';
import { freePort, PROJECT_ROOT, type RunningStack } from '@mediateca/stack';

/**
 * kill -9: the whole stack — Node, Postgres, PostgREST, Deno — is killed with SIGKILL in the middle
 * of a bulk publish, a bulk tag replace, a TUS upload and a post-processing job, then started again on the
 * same data directory. Each test counts what is there before and after: a bulk call is all or nothing and
 * can be retried, the upload resumes to the same sha256, the job finishes.
 */
type StackInfo = Omit<RunningStack, 'stop'>;

let dataDir: string;
let ports: { apiPort: number; dbPort: number };
let child: ChildProcess | undefined;
let stack: StackInfo;

async function start(): Promise<StackInfo> {
  child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(PROJECT_ROOT, 'tests/fixtures/stack-process/main.ts')],
    {
      cwd: PROJECT_ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        FAULT_DATA_DIR: dataDir,
        FAULT_API_PORT: String(ports.apiPort),
        FAULT_DB_PORT: String(ports.dbPort),
      },
    },
  );
  const exited = new Promise<never>((_, reject) =>
    child!.once('exit', (code) => reject(new Error(`the stack process exited (${code}) before it was ready`))),
  );
  const ready = (async () => {
    for await (const line of readline.createInterface({ input: child!.stdout! })) {
      if (line.startsWith('READY ')) return JSON.parse(line.slice(6)) as StackInfo;
    }
    throw new Error('the stack process closed its output before it was ready');
  })();
  stack = await Promise.race([ready, exited]);
  return stack;
}

/** SIGKILL to every process of the stack at once, then waits until none is left. */
async function killStack() {
  const group = -child!.pid!;
  process.kill(group, 'SIGKILL');
  for (;;) {
    try {
      process.kill(group, 0);
    } catch {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child = undefined;
}

const sql = <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
  queryOnce<T>(stack.adminDbUrl, text, values);

/** Holds a row lock on one file in its own transaction, so a bulk call touching that row stops half-way. */
async function lockFileRow(fileId: string, table: 'files' | 'file_tags') {
  const db = new pg.Client({ connectionString: stack.adminDbUrl });
  await db.connect();
  await db.query('begin');
  const column = table === 'files' ? 'id' : 'file_id';
  await db.query(`select 1 from public.${table} where ${column} = $1 for update`, [fileId]);
  // Dropped by the kill: the client's socket just errors, which is expected.
  db.on('error', () => {});
  return db;
}

/** Resolves once a statement calling `rpc` is waiting on a lock: it has done part of its work, uncommitted. */
async function blockedMidway(rpc: string) {
  for (;;) {
    const rows = await sql(
      `select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%' || $1 || '%'`,
      [rpc],
    );
    if (rows.length) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function signedIn(role: 'ADMIN'): Promise<SupabaseClient> {
  const supabase = clientFor(stack.apiUrl, stack.anonKey);
  const { email, password } = seedAccounts[role];
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return supabase;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-faults-'));
  ports = { apiPort: await freePort(), dbPort: await freePort() };
  await start();
}, 180_000);

afterAll(async () => {
  if (child) await killStack();
  await rm(dataDir, { recursive: true, force: true });
});

describe('kill -9 of the whole stack', () => {
  it('during a 500-file bulk publish: after restart none is published, and the retried call publishes all 500', async () => {
    const service = clientFor(stack.apiUrl, stack.serviceRoleKey);
    const ids = await insertFiles(`kill-publish`, 500, {}, service);
    const published = async () =>
      (
        await sql<{ n: number }>('select count(*)::int as n from public.files where id = any($1) and published', [ids])
      )[0]!.n;
    expect(await published()).toBe(0);

    const lock = await lockFileRow(ids[250]!, 'files');
    const admin = await signedIn('ADMIN');
    // supabase-js builders are lazy: then() sends the call. Its answer never comes (the stack dies first).
    void admin.rpc('publish_files', { p_published: true, p_file_ids: ids }).then(() => {});
    await blockedMidway('publish_files');
    await killStack();
    void lock.end().catch(() => {});
    await start();

    expect(await published()).toBe(0);
    const retried = await (await signedIn('ADMIN')).rpc('publish_files', { p_published: true, p_file_ids: ids });
    expect(retried).toMatchObject({ error: null, data: 500 });
    const again = await (await signedIn('ADMIN')).rpc('publish_files', { p_published: true, p_file_ids: ids });
    expect(again).toMatchObject({ error: null, data: 0 });
    expect(await published()).toBe(500);
  }, 180_000);

  it('during a bulk tag replace: after restart every file keeps its old tags; the retried call replaces them all', async () => {
    const service = clientFor(stack.apiUrl, stack.serviceRoleKey);
    const ids = await insertFiles(`kill-tags`, 500, {}, service);
    await sql(`insert into public.file_tags (file_id, tag_id) select unnest($1::uuid[]), $2`, [ids, seedTags.piscina]);
    const tagPairs = async () =>
      (
        await sql<{ tag_id: string; n: number }>(
          `select tag_id, count(*)::int as n from public.file_tags where file_id = any($1) group by tag_id order by 1`,
          [ids],
        )
      ).map((row) => [row.tag_id, row.n]);
    expect(await tagPairs()).toEqual([[seedTags.piscina, 500]]);

    const lock = await lockFileRow(ids[250]!, 'file_tags');
    void (await signedIn('ADMIN'))
      .rpc('set_files_tags', { p_tag_ids: [seedTags.verano], p_file_ids: ids })
      .then(() => {});
    await blockedMidway('set_files_tags');
    await killStack();
    void lock.end().catch(() => {});
    await start();

    expect(await tagPairs()).toEqual([[seedTags.piscina, 500]]);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const retried = await (
        await signedIn('ADMIN')
      ).rpc('set_files_tags', {
        p_tag_ids: [seedTags.verano],
        p_file_ids: ids,
      });
      expect(retried.error).toBeNull();
    }
    expect(await tagPairs()).toEqual([[seedTags.verano, 500]]);
  }, 180_000);

  it('during a TUS upload: after restart the upload resumes from the server offset to the same sha256', async () => {
    const CHUNK = 1024 * 1024;
    const bytes = randomBytes(12 * CHUNK + 777);
    const objectName = `${crypto.randomUUID()}/${crypto.randomUUID()}.bin`;
    const upload = (uploadUrl: string | null, killAfter?: number) =>
      new Promise<{ url: string; sent: number }>((resolve, reject) => {
        let sent = 0;
        const u = new tus.Upload(bytes, {
          endpoint: `${stack.apiUrl}/storage/v1/upload/resumable`,
          uploadUrl,
          headers: { authorization: `Bearer ${stack.serviceRoleKey}` },
          metadata: { bucketName: 'trash', objectName },
          chunkSize: CHUNK,
          retryDelays: [],
          onChunkComplete: (size) => {
            sent += size;
            if (killAfter !== undefined && sent >= killAfter) {
              void u.abort(false);
              void killStack().then(() => resolve({ url: u.url!, sent }));
            }
          },
          onError: reject,
          onSuccess: () => resolve({ url: u.url!, sent }),
        });
        u.start();
      });
    const first = await upload(null, 5 * CHUNK);
    await start();
    const head = await fetch(first.url, {
      method: 'HEAD',
      headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${stack.serviceRoleKey}` },
    });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(5 * CHUNK);
    const second = await upload(first.url);
    expect(second.sent).toBe(bytes.length - offset);
    const stored = await clientFor(stack.apiUrl, stack.serviceRoleKey).storage.from('trash').download(objectName);
    expect(stored.error).toBeNull();
    expect(sha256(new Uint8Array(await stored.data!.arrayBuffer()))).toBe(sha256(bytes));
  }, 180_000);

  it('during post-processing: after restart the job runs again and the file is processed with the right checksum', async () => {
    const admin = await signedIn('ADMIN');
    const fileId = crypto.randomUUID();
    const objectPath = `${fileId}/${crypto.randomUUID()}.pdf`;
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(3 * 1024 * 1024)]);
    expect(
      (await admin.storage.from('media').upload(objectPath, bytes, { contentType: 'application/pdf' })).error,
    ).toBeNull();
    const inserted = await admin.from('files').insert({
      id: fileId,
      file_name: objectPath.split('/')[1]!,
      object_path: objectPath,
      original_file_name: 'informe.pdf',
      name_es: 'informe',
      name_en: 'informe',
      extension: 'pdf',
    });
    expect(inserted.error).toBeNull();
    // The trigger queued the job in the insert's transaction; kill before or while the worker runs it.
    expect(
      await sql(`select 1 from public.server_jobs where file_id = $1 and kind = 'process_upload'`, [fileId]),
    ).toHaveLength(1);
    await killStack();
    await start();

    const processed = await eventually(async () => {
      const [file] = await sql<{ processing: boolean; checksum: string | null; size: string }>(
        'select processing, checksum, size from public.files where id = $1',
        [fileId],
      );
      return file!.processing ? undefined : file;
    });
    expect(processed).toMatchObject({ checksum: sha256(bytes), size: String(bytes.length) });
    // The worker records the job as done after the file's row is written, in a call of its own: wait for it.
    const states = await eventually(async () => {
      const jobs = await sql<{ state: string }>(
        `select state from public.server_jobs where file_id = $1 and kind = 'process_upload'`,
        [fileId],
      );
      return jobs.some((job) => job.state === 'running') ? undefined : jobs.map((job) => job.state);
    });
    expect(states).toEqual(['done']);
  }, 180_000);
});
