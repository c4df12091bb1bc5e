import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { adminDb, signedInSeed } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { madridDay } from '../helpers/rights.ts';
import { seedAccounts, seedTags } from '../helpers/seed.ts';
import { refusalOf } from '../../src/features/files/api/refused-files.ts';

/**
 * The selection bar's 'Añadir etiquetas' / 'Quitar etiquetas' (one statement each, other tags untouched, the
 * permission rules of 'Editar tags', recorded in Historial) and bulk actions that a per-file rule refuses for
 * some files: the refusal names them, and the action can go on with the others.
 */
let db: pg.Client;
let admin: SupabaseClient;
let uploader: SupabaseClient;
let front: SupabaseClient;
const marker = `lote${crypto.randomUUID().slice(0, 6)}`;

beforeAll(async () => {
  db = await adminDb();
  admin = await signedInSeed('ADMIN');
  uploader = await signedInSeed('UPLOADER');
  front = await signedInSeed('FRONT');
});

afterAll(async () => {
  await db.query(`delete from public.files where name_es like $1`, [`${marker}%`]);
  await db.end();
});

const tagsOf = async (ids: string[]) => {
  const { rows } = await db.query<{ file_id: string; tags: string[] }>(
    `select f.id as file_id, coalesce(array_agg(ft.tag_id order by ft.tag_id) filter (where ft.tag_id is not null), '{}') as tags
       from public.files f left join public.file_tags ft on ft.file_id = f.id
      where f.id = any($1) group by f.id`,
    [ids],
  );
  return Object.fromEntries(rows.map((row) => [row.file_id, row.tags]));
};

describe("'Añadir etiquetas' and 'Quitar etiquetas'", () => {
  it('adds a tag to 200 files keeping their other tags, then removes only that one, both in Historial', async () => {
    const ids = await insertFiles(`${marker} etiquetas`, 200);
    await db.query(`insert into public.file_tags (file_id, tag_id) select unnest($1::uuid[]), $2`, [
      ids,
      seedTags.verano,
    ]);
    const added = await admin.rpc('add_files_tags', { p_tag_ids: [seedTags.piscina], p_file_ids: ids });
    expect(added).toMatchObject({ error: null, data: 200 });
    const both = [seedTags.piscina, seedTags.verano].sort();
    expect(Object.values(await tagsOf(ids))).toEqual(Array.from({ length: 200 }, () => both));

    const removed = await admin.rpc('remove_files_tags', { p_tag_ids: [seedTags.piscina], p_file_ids: ids });
    expect(removed).toMatchObject({ error: null, data: 200 });
    expect(Object.values(await tagsOf(ids))).toEqual(Array.from({ length: 200 }, () => [seedTags.verano]));

    const { rows: history } = await db.query<{ action: string; changed_by_email: string; files: number }>(
      `select action, changed_by_email, count(distinct file_id)::int as files from public.file_history
        where file_id = any($1) and changes ->> 'tag' = 'Piscina' group by 1, 2 order by 1`,
      [ids],
    );
    expect(history).toEqual([
      { action: 'tagged', changed_by_email: seedAccounts.ADMIN.email, files: 200 },
      { action: 'untagged', changed_by_email: seedAccounts.ADMIN.email, files: 200 },
    ]);
  });

  it("works for 'Seleccionar todos' by query, and several tags at once", async () => {
    const ids = await insertFiles(`${marker} consulta`, 3);
    const filter = { query: `${marker} consulta` };
    const added = await admin.rpc('add_files_tags', { p_tag_ids: [seedTags.spa, seedTags.invierno], p_filter: filter });
    expect(added).toMatchObject({ error: null, data: 3 });
    const expected = [seedTags.spa, seedTags.invierno].sort();
    expect(Object.values(await tagsOf(ids))).toEqual([expected, expected, expected]);
    const removed = await admin.rpc('remove_files_tags', { p_tag_ids: [seedTags.spa], p_filter: filter });
    expect(removed).toMatchObject({ error: null, data: 3 });
    expect(Object.values(await tagsOf(ids))).toEqual([[seedTags.invierno], [seedTags.invierno], [seedTags.invierno]]);
  });

  it('lets an uploader change only their own files, as Editar tags does, and nobody outside the staff', async () => {
    const [own] = await insertFiles(`${marker} propio`, 1, { uploader_id: seedAccounts.UPLOADER.id });
    const [others] = await insertFiles(`${marker} ajeno`, 1);
    for (const rpc of ['add_files_tags', 'remove_files_tags'] as const) {
      const notStaff = await front.rpc(rpc, { p_tag_ids: [seedTags.borrador], p_file_ids: [own!] });
      expect(notStaff.error).toMatchObject({ code: '42501', hint: 'NOT_ADMIN' });
    }
    // Another person's file is not among those an uploader can see, so it is left out, not tagged.
    const added = await uploader.rpc('add_files_tags', { p_tag_ids: [seedTags.borrador], p_file_ids: [own!, others!] });
    expect(added).toMatchObject({ error: null, data: 1 });
    expect(await tagsOf([own!, others!])).toEqual({ [own!]: [seedTags.borrador], [others!]: [] });

    await db.query(`insert into public.file_tags (file_id, tag_id) values ($1, $2)`, [others, seedTags.borrador]);
    const removed = await uploader.rpc('remove_files_tags', {
      p_tag_ids: [seedTags.borrador],
      p_file_ids: [own!, others!],
    });
    expect(removed).toMatchObject({ error: null, data: 1 });
    expect(await tagsOf([own!, others!])).toEqual({ [own!]: [], [others!]: [seedTags.borrador] });
  });

  it('is seen live by others: file_tags is in the Realtime publication', async () => {
    const { rows } = await db.query(
      `select 1 from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public'
          and tablename = 'file_tags'`,
    );
    expect(rows).toHaveLength(1);
  });
});

describe('bulk actions refused for some files', () => {
  it("'Activar' of seven files, one with expired rights, publishes none and names it; then the other six", async () => {
    const ids = await insertFiles(`${marker} activar`, 7, {
      name: (index) => (index === 3 ? `${marker} Piscina 2019` : `${marker} activar ${index}`),
    });
    await db.query(`update public.files set rights_expire_on = $2 where id = $1`, [ids[3], madridDay(-1)]);

    const refused = await admin.rpc('publish_files', { p_published: true, p_file_ids: ids });
    expect(refused.error).toMatchObject({ code: 'P0001', hint: 'RIGHTS_EXPIRED' });
    expect(refusalOf(refused.error)).toEqual({
      count: 1,
      files: [{ id: ids[3], name: `${marker} Piscina 2019`, reason: 'RIGHTS_EXPIRED' }],
    });
    const none = await db.query(`select id from public.files where id = any($1) and published`, [ids]);
    expect(none.rows).toEqual([]);

    const others = await admin.rpc('publish_files', { p_published: true, p_file_ids: ids, p_skip_refused: true });
    expect(others).toMatchObject({ error: null, data: 6 });
    const { rows } = await db.query<{ id: string }>(`select id from public.files where id = any($1) and published`, [
      ids,
    ]);
    expect(rows.map((row) => row.id).sort()).toEqual(ids.filter((_, index) => index !== 3).sort());
  });

  it('names files that could not be processed too, by query, at most 20 by name but all counted', async () => {
    const ids = await insertFiles(`${marker} muchos`, 25);
    await db.query(`update public.files set rights_expire_on = $2 where id = any($1)`, [
      ids.slice(0, 22),
      madridDay(-2),
    ]);
    await db.query(`update public.files set processing_error = 'ilegible' where id = $1`, [ids[24]]);
    const refused = await admin.rpc('publish_files', { p_published: true, p_filter: { query: `${marker} muchos` } });
    const refusal = refusalOf(refused.error)!;
    expect(refusal.count).toBe(23);
    expect(refusal.files).toHaveLength(20);
    const others = await admin.rpc('publish_files', {
      p_published: true,
      p_filter: { query: `${marker} muchos` },
      p_skip_refused: true,
    });
    expect(others).toMatchObject({ error: null, data: 2 });
  });

  it("'Borrar' names the files still processing and can delete the others", async () => {
    const [busy] = await insertFiles(`${marker} en proceso`, 1, { processing: true });
    const [done] = await insertFiles(`${marker} listo`, 1);
    const refused = await admin.rpc('delete_files', { p_file_ids: [busy!, done!] });
    expect(refused.error).toMatchObject({
      code: 'P0001',
      hint: 'FILES_PROCESSING',
      message: 'No se pueden borrar archivos en proceso',
    });
    expect(refusalOf(refused.error)).toEqual({
      count: 1,
      files: [{ id: busy, name: `${marker} en proceso 0`, reason: 'FILES_PROCESSING' }],
    });
    const others = await admin.rpc('delete_files', { p_file_ids: [busy!, done!], p_skip_refused: true });
    expect(others).toMatchObject({ error: null, data: 1 });
    const { rows } = await db.query<{ id: string }>(`select id from public.files where id = any($1)`, [[busy, done]]);
    expect(rows).toEqual([{ id: busy }]);
  });
});
