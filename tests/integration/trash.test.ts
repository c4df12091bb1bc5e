import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { adminDb, client, signedInSeed, stackInfo } from '../helpers/clients.ts';
import { seedAccounts, seedCollections, seedTags } from '../helpers/seed.ts';
import { eventually, sha256, trashJobsDone } from '../helpers/checks.ts';
import { readFeed } from '../helpers/feed.ts';
import { ANALYST_LOCAL_PASSWORD, ANALYST_LOCAL_USER } from '@mediateca/stack';

/**
 * The Papelera: a deleted file leaves every reader at once but is kept for 30 days with its
 * texts, tags, collection links and bytes; admins (only) list, restore and purge it; the job queue purges
 * it after 30 days. Real stack throughout: PostgREST, Storage, the run-jobs worker.
 */

let admin: SupabaseClient;
let uploader: SupabaseClient;
let service: SupabaseClient;
let anon: SupabaseClient;
let db: pg.Client;
let analyst: pg.Client;

async function stored(bucket: string, path: string): Promise<string | undefined> {
  const { data } = await service.storage.from(bucket).download(path);
  return data ? sha256(Buffer.from(await data.arrayBuffer())) : undefined;
}

const gone = async (bucket: string, path: string) =>
  (await service.storage.from(bucket).exists(path)).data ? undefined : true;

/** A published, processed file of the uploader's, with its object stored, two tags and one collection. */
async function libraryFile(marker: string, bytes = `bytes of ${marker} ${crypto.randomUUID()}`) {
  const id = crypto.randomUUID();
  const objectPath = `${id}/${crypto.randomUUID()}.txt`;
  expect(
    (await service.storage.from('media').upload(objectPath, bytes, { contentType: 'text/plain' })).error,
  ).toBeNull();
  await db.query(
    `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, description_es,
                               description_en, size, uploader_id, uploader_email, extension, processing,
                               published, checksum, uploaded_on)
     values ($1, $2, $3, $4, $5, $5, 'Descripción', 'Description', $6, $7, $8, 'txt', false, true, $9,
             '2026-01-02T03:04:05Z')`,
    [
      id,
      objectPath.split('/')[1],
      objectPath,
      `${marker}.txt`,
      marker,
      Buffer.byteLength(bytes),
      seedAccounts.UPLOADER.id,
      seedAccounts.UPLOADER.email,
      sha256(bytes),
    ],
  );
  await db.query(`insert into public.file_tags (file_id, tag_id) values ($1, $2), ($1, $3)`, [
    id,
    seedTags.piscina,
    seedTags.verano,
  ]);
  await db.query(`insert into public.collection_files (collection_id, file_id) values ($1, $2)`, [
    seedCollections.verano,
    id,
  ]);
  return { id, objectPath, bytes };
}

async function searchIds(supabase: SupabaseClient, query: string): Promise<string[]> {
  const { data, error } = await supabase.rpc('search_files', { p_filter: { query }, p_limit: 50 });
  expect(error).toBeNull();
  return (data as Array<{ id: string }>).map((file) => file.id);
}

async function feedIds(): Promise<string[]> {
  await eventually(async () => {
    const { rows } = await db.query(
      `select 1 from public.server_jobs where dedupe_key = 'update_feed' and state in ('pending', 'running')`,
    );
    return rows.length === 0 ? true : undefined;
  });
  return (await readFeed(stackInfo().apiUrl)).files.map((file) => file.id);
}

beforeAll(async () => {
  admin = await signedInSeed('ADMIN');
  uploader = await signedInSeed('UPLOADER');
  service = client('service_role');
  anon = client('anon');
  db = await adminDb();
  const url = new URL(stackInfo().dbUrl);
  url.username = ANALYST_LOCAL_USER;
  url.password = ANALYST_LOCAL_PASSWORD;
  analyst = new pg.Client({ connectionString: url.toString() });
  await analyst.connect();
}, 120_000);

afterAll(async () => {
  await analyst?.end();
  await db?.end();
});

describe('deleting a file puts it in the Papelera', () => {
  it('hides it from the library, search, counts, the feed, public pages and the analyst views at once', async () => {
    const marker = `papelera-visible-${crypto.randomUUID().slice(0, 8)}`;
    const file = await libraryFile(marker);
    expect(await searchIds(uploader, marker)).toEqual([file.id]);
    expect(await feedIds()).toContain(file.id);
    const countBefore = (
      await db.query(`select file_count from public.collections where id = $1`, [seedCollections.verano])
    ).rows[0].file_count;

    const deleted = await admin.rpc('delete_files', { p_file_ids: [file.id] });
    expect(deleted).toMatchObject({ data: 1, error: null });

    expect((await uploader.from('files').select('id').eq('id', file.id)).data).toEqual([]);
    expect((await admin.from('files').select('id').eq('id', file.id)).data).toEqual([]);
    expect(await searchIds(admin, marker)).toEqual([]);
    expect(await searchIds(uploader, marker)).toEqual([]);
    expect((await admin.from('file_tags').select('tag_id').eq('file_id', file.id)).data).toEqual([]);
    expect(
      (await db.query(`select file_count from public.collections where id = $1`, [seedCollections.verano])).rows[0]
        .file_count,
    ).toBe(countBefore - 1);
    expect(await anon.rpc('get_public_file', { p_file_id: file.id })).toMatchObject({ data: null, error: null });
    const publicCollection = await anon.rpc('get_public_collection', { p_collection_id: seedCollections.verano });
    expect(JSON.stringify(publicCollection.data)).not.toContain(file.id);
    expect(await feedIds()).not.toContain(file.id);
    // name_es = name_en: it was listed as missing a translation, and is no more.
    const analystRows = await analyst.query(`select 1 from analytics.missing_translations where item_id = $1`, [
      file.id,
    ]);
    expect(analystRows.rows).toEqual([]);
    await expect(analyst.query(`select * from public.trashed_files`)).rejects.toThrow(
      'permission denied for table trashed_files',
    );

    // Kept, by whom and when, with its links; and the object moved to the trash bucket.
    const { data: trashed } = await admin.from('trashed_files').select('*').eq('file_id', file.id).single();
    expect(trashed).toMatchObject({
      name_es: marker,
      object_path: file.objectPath,
      deleted_by: seedAccounts.ADMIN.id,
      deleted_by_email: seedAccounts.ADMIN.email,
      tag_ids: [seedTags.piscina, seedTags.verano].sort(),
      collection_links: [expect.objectContaining({ collection_id: seedCollections.verano })],
    });
    await trashJobsDone(db, [file.id]);
    expect(await stored('trash', file.objectPath)).toBe(sha256(file.bytes));
    expect(await stored('media', file.objectPath)).toBeUndefined();
    const history = await admin.from('file_history').select('action').eq('file_id', file.id);
    expect(history.data?.map((row) => row.action)).toContain('deleted');
  }, 90_000);

  it('lets only admins list, restore and purge the Papelera', async () => {
    const file = await libraryFile(`papelera-permisos-${crypto.randomUUID().slice(0, 8)}`);
    expect((await admin.rpc('delete_files', { p_file_ids: [file.id] })).error).toBeNull();

    expect((await admin.from('trashed_files').select('file_id').eq('file_id', file.id)).data).toHaveLength(1);
    expect((await uploader.from('trashed_files').select('file_id').eq('file_id', file.id)).data ?? []).toEqual([]);
    expect((await anon.from('trashed_files').select('file_id').eq('file_id', file.id)).data ?? []).toEqual([]);
    for (const other of [uploader, anon]) {
      expect((await other.rpc('restore_files', { p_file_ids: [file.id] })).error?.code).toBe('42501');
      expect((await other.rpc('purge_trashed_files', { p_file_ids: [file.id] })).error?.code).toBe('42501');
      expect((await other.rpc('purge_expired_trash')).error?.code).toBe('42501');
      // Nor may they write it directly.
      expect((await other.from('trashed_files').delete().eq('file_id', file.id).select()).data ?? []).toEqual([]);
    }
    const { rows } = await db.query(`select 1 from public.trashed_files where file_id = $1`, [file.id]);
    expect(rows).toHaveLength(1);
    // Its folder stays taken while it can come back.
    const squat = await uploader.storage
      .from('media')
      .upload(`${file.id}/otro.txt`, 'x', { contentType: 'text/plain' });
    expect(squat.error).toMatchObject({ message: 'new row violates row-level security policy' });
    expect((await admin.rpc('purge_trashed_files', { p_file_ids: [file.id] })).data).toBe(1);
  }, 60_000);
});

describe('Restaurar', () => {
  it('brings back the row, texts, tags, collections and the same bytes, recorded once as restored', async () => {
    const marker = `papelera-restaurar-${crypto.randomUUID().slice(0, 8)}`;
    const file = await libraryFile(marker);
    const { rows: before } = await db.query(
      `select to_jsonb(f) - 'updated_at' - 'search_document' as row from public.files f where id = $1`,
      [file.id],
    );
    expect((await admin.rpc('delete_files', { p_file_ids: [file.id] })).error).toBeNull();
    await trashJobsDone(db, [file.id]);
    expect(await stored('media', file.objectPath)).toBeUndefined();

    expect(await admin.rpc('restore_files', { p_file_ids: [file.id] })).toMatchObject({ data: 1, error: null });

    const { rows: after } = await db.query(
      `select to_jsonb(f) - 'updated_at' - 'search_document' as row from public.files f where id = $1`,
      [file.id],
    );
    expect(after[0].row).toEqual(before[0].row);
    expect((await uploader.from('files').select('name_es, description_en').eq('id', file.id).single()).data).toEqual({
      name_es: marker,
      description_en: 'Description',
    });
    const tags = await admin.from('file_tags').select('tag_id').eq('file_id', file.id);
    expect(tags.data?.map((row) => row.tag_id).sort()).toEqual([seedTags.piscina, seedTags.verano].sort());
    const links = await admin.from('collection_files').select('collection_id').eq('file_id', file.id);
    expect(links.data).toEqual([{ collection_id: seedCollections.verano }]);
    expect(await searchIds(uploader, marker)).toEqual([file.id]);
    expect((await admin.from('trashed_files').select('file_id').eq('file_id', file.id)).data).toEqual([]);

    await trashJobsDone(db, [file.id]);
    expect(await stored('media', file.objectPath)).toBe(sha256(file.bytes));
    expect(await stored('trash', file.objectPath)).toBeUndefined();
    expect(await feedIds()).toContain(file.id);

    const history = await admin.from('file_history').select('action, changed_by').eq('file_id', file.id).order('id');
    expect(history.data?.map((row) => row.action)).toEqual([
      'created',
      'tagged',
      'tagged',
      'added_to_collection',
      'deleted',
      'restored',
    ]);
    expect(history.data?.at(-1)?.changed_by).toBe(seedAccounts.ADMIN.id);
  }, 90_000);

  it('after a replacement, brings back the object the file had when deleted, not the replaced one', async () => {
    const first = `primera versión ${crypto.randomUUID()}`;
    const second = `segunda versión ${crypto.randomUUID()}`;
    const file = await libraryFile(`papelera-reemplazo-${crypto.randomUUID().slice(0, 8)}`, first);
    const newPath = `${file.id}/${crypto.randomUUID()}.txt`;
    expect(
      (await uploader.storage.from('media').upload(newPath, second, { contentType: 'text/plain' })).error,
    ).toBeNull();
    expect((await uploader.from('files').update({ object_path: newPath }).eq('id', file.id)).error).toBeNull();
    await eventually(async () => {
      const { rows } = await db.query(`select processing from public.files where id = $1`, [file.id]);
      return rows[0].processing === false ? true : undefined;
    });

    expect((await admin.rpc('delete_files', { p_file_ids: [file.id] })).error).toBeNull();
    await trashJobsDone(db, [file.id]);
    expect(await stored('trash', file.objectPath)).toBe(sha256(first));
    expect(await stored('trash', newPath)).toBe(sha256(second));

    expect((await admin.rpc('restore_files', { p_file_ids: [file.id] })).error).toBeNull();
    await trashJobsDone(db, [file.id]);
    const { rows } = await db.query(`select object_path, checksum from public.files where id = $1`, [file.id]);
    expect(rows[0]).toEqual({ object_path: newPath, checksum: sha256(second) });
    expect(await stored('media', newPath)).toBe(sha256(second));
    // The earlier version stays where a replacement always put it.
    expect(await stored('trash', file.objectPath)).toBe(sha256(first));
  }, 90_000);
});

describe('purging', () => {
  it('Borrar definitivamente removes the trashed row and every object of the file from the trash', async () => {
    const file = await libraryFile(`papelera-definitivo-${crypto.randomUUID().slice(0, 8)}`);
    expect((await admin.rpc('delete_files', { p_file_ids: [file.id] })).error).toBeNull();
    expect(await admin.rpc('purge_trashed_files', { p_file_ids: [file.id] })).toMatchObject({ data: 1, error: null });
    expect((await admin.from('trashed_files').select('file_id').eq('file_id', file.id)).data).toEqual([]);
    // The move to the trash ran first, then the removal.
    await trashJobsDone(db, [file.id]);
    expect(await gone('trash', file.objectPath)).toBe(true);
    expect(await gone('media', file.objectPath)).toBe(true);
    expect((await admin.rpc('restore_files', { p_file_ids: [file.id] })).data).toBe(0);
  }, 60_000);

  it('the job queue purges files trashed more than 30 days ago, and keeps the younger ones', async () => {
    const old = await libraryFile(`papelera-caducada-${crypto.randomUUID().slice(0, 8)}`);
    const young = await libraryFile(`papelera-reciente-${crypto.randomUUID().slice(0, 8)}`);
    expect((await admin.rpc('delete_files', { p_file_ids: [old.id, young.id] })).error).toBeNull();
    await trashJobsDone(db, [old.id, young.id]);
    const { rows: job } = await db.query(
      `select run_after > now() + interval '29 days' as in_30_days from public.server_jobs
        where dedupe_key = 'purge_trash' and state = 'pending'`,
    );
    expect(job).toEqual([{ in_30_days: true }]);

    // 31 days pass: for the file and for the job queue's clock.
    await db.query(`update public.trashed_files set deleted_at = now() - interval '31 days' where file_id = $1`, [
      old.id,
    ]);
    await db.query(
      `update public.server_jobs set run_after = now() where dedupe_key = 'purge_trash' and state = 'pending'`,
    );
    await eventually(async () => {
      const { rows } = await db.query(`select 1 from public.trashed_files where file_id = $1`, [old.id]);
      return rows.length === 0 ? true : undefined;
    });
    await trashJobsDone(db, [old.id]);
    expect(await gone('trash', old.objectPath)).toBe(true);
    expect((await db.query(`select 1 from public.trashed_files where file_id = $1`, [young.id])).rows).toHaveLength(1);
    expect(await stored('trash', young.objectPath)).toBe(sha256(young.bytes));
    // And it is due again when the next one expires.
    const { rows: next } = await db.query(
      `select run_after > now() + interval '29 days' as later from public.server_jobs
        where dedupe_key = 'purge_trash' and state = 'pending'`,
    );
    expect(next).toEqual([{ later: true }]);
    await admin.rpc('purge_trashed_files', { p_file_ids: [young.id] });
  }, 90_000);
});
