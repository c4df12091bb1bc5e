import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../tests/helpers/clients.ts';
import { seedAccounts } from '../../tests/helpers/seed.ts';
import { queryOnce, sha256 } from '../../tests/helpers/checks.ts';
import type { RunningStack } from '../src/stack.ts';
import { startOwnStack } from '../../tests/helpers/own-stack.ts';
import { backupLibrary, restoreLibrary } from '../src/backup.ts';

/**
 * Backup → wipe → restore, on two stacks of its own: the demo library plus changes made through
 * the API is archived, the first stack and its data directory are removed, and a fresh stack loaded from the
 * archive has the same rows in every kept table and the same bytes (sha256) in every object.
 */
let work: string;
let source: RunningStack | undefined;
let target: RunningStack | undefined;

/** Row count and a digest of every row of every table a backup keeps, by table. */
async function tableFingerprints(stack: RunningStack) {
  const tables = await queryOnce<{ name: string }>(
    stack.adminDbUrl,
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
      where schemaname in ('public', 'private')
         or format('%s.%s', schemaname, tablename) in ('auth.users', 'auth.identities', 'storage.buckets', 'storage.objects')
      order by 1`,
  );
  const result: Record<string, { rows: number; digest: string | null }> = {};
  for (const { name } of tables) {
    const [row] = await queryOnce<{ rows: number; digest: string | null }>(
      stack.adminDbUrl,
      `select count(*)::int as rows, md5(string_agg(t::text, '|' order by t::text)) as digest from ${name} t`,
    );
    result[name] = row!;
  }
  return result;
}

/** sha256 of every stored object, read back through each stack's Storage API. */
async function objectDigests(stack: RunningStack) {
  const service = clientFor(stack.apiUrl, stack.serviceRoleKey);
  const objects = await queryOnce<{ bucket: string; name: string }>(
    stack.adminDbUrl,
    'select bucket_id as bucket, name from storage.objects order by 1, 2',
  );
  const digests: Record<string, string> = {};
  for (const { bucket, name } of objects) {
    const { data, error } = await service.storage.from(bucket).download(name);
    if (error) throw error;
    digests[`${bucket}/${name}`] = sha256(await data.arrayBuffer());
  }
  return digests;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'mediateca-backup-test-'));
  source = await startOwnStack({ seed: true, jobWorker: false });
}, 180_000);

afterAll(async () => {
  await source?.stop();
  await target?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('npm run backup, then npm run restore on a fresh stack', () => {
  it('reproduces every row and the sha256 of every object, and the accounts sign in again', async () => {
    // Changes on top of the demo library: a new staff user, an edited file, an uploaded object.
    const service = clientFor(source!.apiUrl, source!.serviceRoleKey);
    const created = await service.auth.admin.createUser({
      email: 'restaurada@example.com',
      password: 'una-clave-larga-1',
      email_confirm: true,
      app_metadata: { role: 'UPLOADER' },
    });
    expect(created.error).toBeNull();
    await queryOnce(
      source!.adminDbUrl,
      `update public.files set name_en = 'Edited before the backup' where id = (
      select id from public.files order by id limit 1)`,
    );
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    expect((await service.storage.from('trash').upload('a/extra.bin', bytes)).error).toBeNull();

    const before = { tables: await tableFingerprints(source!), objects: await objectDigests(source!) };
    expect(Object.keys(before.objects).length).toBeGreaterThan(5);
    expect(before.tables['public.files']!.rows).toBeGreaterThan(0);

    const archive = path.join(work, 'library.tar.gz');
    const manifest = await backupLibrary({ adminDbUrl: source!.adminDbUrl, dataDir: source!.dataDir, archive });
    expect(manifest.objects).toHaveLength(Object.keys(before.objects).length);
    await source!.stop();
    source = undefined;

    target = await startOwnStack({ seed: false, jobWorker: false });
    expect((await tableFingerprints(target))['public.files']!.rows).toBe(0);
    await restoreLibrary({ adminDbUrl: target.adminDbUrl, dataDir: target.dataDir, archive });

    expect(await tableFingerprints(target)).toEqual(before.tables);
    expect(await objectDigests(target)).toEqual(before.objects);
    const anon = clientFor(target.apiUrl, target.anonKey);
    const signIn = await anon.auth.signInWithPassword({
      email: 'restaurada@example.com',
      password: 'una-clave-larga-1',
    });
    expect(signIn.error).toBeNull();
    const admin = clientFor(target.apiUrl, target.anonKey);
    const { email, password } = seedAccounts.ADMIN;
    expect((await admin.auth.signInWithPassword({ email, password })).error).toBeNull();
    const listed = await admin.from('files').select('id', { count: 'exact', head: true });
    expect(listed.count).toBe(before.tables['public.files']!.rows);
  }, 300_000);

  it('refuses an archive taken with other migrations, changing nothing', async () => {
    const archive = path.join(work, 'library.tar.gz');
    const rowsBefore = await tableFingerprints(target!);
    await queryOnce(
      target!.adminDbUrl,
      `insert into supabase_migrations.schema_migrations (version, name) values ('29991231000000', 'future')`,
    );
    await expect(restoreLibrary({ adminDbUrl: target!.adminDbUrl, dataDir: target!.dataDir, archive })).rejects.toThrow(
      /other migrations/,
    );
    expect(await tableFingerprints(target!)).toEqual(rowsBefore);
  });
});
