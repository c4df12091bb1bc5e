import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { PROJECT_ROOT } from '@mediateca/stack';
import { eventually } from '../helpers/checks.ts';
import { adminDb, signedInSeed, stackInfo } from '../helpers/clients.ts';
import { readFeed, readFeedCatalogue, readFeedIndex, type FeedIndex } from '../helpers/feed.ts';

/**
 * The public feed as a consumer reads it (index → pages → catalogue, public URLs, no key), kept current by
 * the server after each change: one published file's edit rewrites its page and the index only, a tag's
 * rename the catalogue only, and every object matches the JSON Schemas in docs/feed.
 */

let db: pg.Client;
let admin: SupabaseClient;
const apiUrl = () => stackInfo().apiUrl;

const schema = async (name: string) =>
  z.fromJSONSchema(JSON.parse(await readFile(path.join(PROJECT_ROOT, 'docs/feed', `${name}.schema.json`), 'utf8')));

const pageOf = (id: string) => id.slice(0, 3);

async function feedSettled() {
  await eventually(async () => {
    const { rows } = await db.query(
      `select 1 from public.server_jobs where dedupe_key = 'update_feed' and state in ('pending', 'running')`,
    );
    return rows.length === 0 ? true : undefined;
  });
}

const etags = (index: FeedIndex) => new Map(index.pages.map((page) => [page.id, page.etag]));

beforeAll(async () => {
  db = await adminDb();
  admin = await signedInSeed('ADMIN');
});

afterAll(async () => {
  await db?.end();
});

describe('public feed', () => {
  it('lists exactly the published files, in objects that match the documented schemas', async () => {
    await feedSettled();
    const { index, files } = await readFeed(apiUrl());
    const { rows } = await db.query<{ id: string }>(`select id from public.files where published order by id`);
    expect(files.map((file) => file.id).sort()).toEqual(rows.map((row) => row.id));
    expect(index.files).toBe(rows.length);

    const [indexSchema, pageSchema, catalogueSchema] = await Promise.all([
      schema('index'),
      schema('page'),
      schema('catalogue'),
    ]);
    expect(indexSchema.safeParse(index).error).toBeUndefined();
    const firstPage = await (
      await fetch(`${apiUrl()}/storage/v1/object/public/public-feed/${index.pages[0]!.url}?t=${Date.now()}`)
    ).json();
    expect(pageSchema.safeParse(firstPage).error).toBeUndefined();
    expect(catalogueSchema.safeParse(await readFeedCatalogue(apiUrl())).error).toBeUndefined();
    // A page's ETag is the MD5 of its bytes, so a consumer can check what it downloaded.
    const pageBytes = await (
      await fetch(`${apiUrl()}/storage/v1/object/public/public-feed/${index.pages[0]!.url}?t=${Date.now()}`)
    ).text();
    const { rows: md5 } = await db.query<{ md5: string }>(`select md5($1) as md5`, [pageBytes]);
    expect(index.pages[0]!.etag).toBe(md5[0]!.md5);
  });

  it('rewrites only the page of an edited file and the index, within seconds of the commit', async () => {
    await feedSettled();
    const before = await readFeedIndex(apiUrl());
    const { rows } = await db.query<{ id: string }>(`select id from public.files where published order by id limit 1`);
    const fileId = rows[0]!.id;
    const name = `Renombrada ${Date.now()}`;
    const renamed = await admin.from('files').update({ name_es: name }).eq('id', fileId).select('id');
    expect(renamed.error).toBeNull();

    const after = await eventually(async () => {
      const index = await readFeedIndex(apiUrl());
      return etags(index).get(pageOf(fileId)) !== etags(before).get(pageOf(fileId)) ? index : undefined;
    });
    const changed = [...etags(after)].filter(([page, etag]) => etags(before).get(page) !== etag).map(([page]) => page);
    expect(changed).toEqual([pageOf(fileId)]);
    const { files } = await readFeed(apiUrl());
    expect(files.find((file) => file.id === fileId)?.nameEs).toBe(name);
  });

  it("renames a tag in the catalogue without rewriting any page, and drops a hidden category's tags from pages", async () => {
    await feedSettled();
    const before = await readFeedIndex(apiUrl());
    const { rows } = await db.query<{ tag_id: string; category_id: string; file_id: string }>(
      `select t.id as tag_id, t.category_id, f.id as file_id
         from public.file_tags ft join public.tags t on t.id = ft.tag_id join public.files f on f.id = ft.file_id
        join public.tag_categories c on c.id = t.category_id
        where f.published and not c.hide_b2c limit 1`,
    );
    const { tag_id: tagId, category_id: categoryId, file_id: fileId } = rows[0]!;
    const { rows: original } = await db.query<{ name_es: string }>(`select name_es from public.tags where id = $1`, [
      tagId,
    ]);
    const name = `Etiqueta ${Date.now()}`;
    try {
      expect((await admin.from('tags').update({ name_es: name }).eq('id', tagId)).error).toBeNull();
      const catalogue = await eventually(async () => {
        const current = await readFeedCatalogue(apiUrl());
        return current.tags.some((tag) => tag.id === tagId && tag.nameEs === name) ? current : undefined;
      });
      expect(catalogue.tags.find((tag) => tag.id === tagId)?.nameEs).toBe(name);
      await feedSettled();
      expect(etags(await readFeedIndex(apiUrl()))).toEqual(etags(before));

      expect((await admin.from('tag_categories').update({ hide_b2c: true }).eq('id', categoryId)).error).toBeNull();
      const hidden = await eventually(async () => {
        const { files } = await readFeed(apiUrl());
        const entry = files.find((file) => file.id === fileId);
        return entry && !entry.tags.includes(tagId) ? entry : undefined;
      });
      expect(hidden.tags).not.toContain(tagId);
    } finally {
      await admin.from('tag_categories').update({ hide_b2c: false }).eq('id', categoryId);
      await admin.from('tags').update({ name_es: original[0]!.name_es }).eq('id', tagId);
    }
  });

  it("sizes each of the job's steps by the files its pages hold, and always takes at least one page", async () => {
    const pagesOfStep = async (maxFiles: number) => {
      const { rows } = await db.query<{ page: number }>(
        `select page from public.feed_dirty_pages(64, $1, 'https://x.test/functions/v1', 'https://x.test', '{}')`,
        [maxFiles],
      );
      return rows.map((row) => row.page);
    };
    await db.query('begin');
    try {
      // Sixty-four pages due that held 100 files each when last written (in this transaction only).
      await db.query(`update private.feed_pages set file_count = 100 where page < 64`);
      await db.query(`insert into private.feed_changes (page) select generate_series(0, 63)`);
      expect(await pagesOfStep(250)).toEqual([0, 1, 2]);
      expect(await pagesOfStep(100)).toEqual([0]);
      expect(await pagesOfStep(0)).toEqual([0]);
      expect(await pagesOfStep(1_000_000)).toHaveLength(64);
    } finally {
      await db.query('rollback');
    }
  });

  it('rebuilds every page in bounded steps of one job when staff ask for it', async () => {
    await feedSettled();
    const before = await readFeedIndex(apiUrl());
    const { rows: last } = await db.query<{ id: string }>(`select coalesce(max(id), 0) as id from public.server_jobs`);
    const asked = await admin.functions.invoke('public-feed', { body: {} });
    expect(asked.error).toBeNull();
    expect(asked.data).toEqual({ pagesQueued: before.pages.length });
    await feedSettled();
    const { rows: jobs } = await db.query<{ state: string; n: number }>(
      `select state, count(*)::int as n from public.server_jobs
        where dedupe_key = 'update_feed' and id > $1 group by state`,
      [last[0]!.id],
    );
    expect(jobs).toEqual([{ state: 'done', n: 1 }]);
    const after = await readFeedIndex(apiUrl());
    // Same content, same ETags; every page was written again.
    expect(etags(after)).toEqual(etags(before));
    expect(after.pages.every((page, i) => page.updatedAt > before.pages[i]!.updatedAt)).toBe(true);
  });
});
