import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type pg from 'pg';
import { adminDb, client, stackInfo } from '../helpers/clients.ts';
import { eventually, queryOnce } from '../helpers/checks.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * count_files counts from bitmaps of the search index when they hold the filter (file_search_bitmaps.sql),
 * and from the index and the link tables otherwise. These hold both ways to the same total, for an admin and
 * for an uploader, through every write that moves a file into or out of a set; and the bitmaps to the index
 * rows, bit for bit.
 */

let admin: SupabaseClient;
let service: SupabaseClient;
let db: pg.Client;
const marker = `bm${crypto.randomUUID().slice(0, 6)}`;
const ids: string[] = [];
let tagId = '';
let categoryId = '';

type Reader = 'ADMIN' | 'UPLOADER';

/**
 * The total of `filter` as `reader` sees it, counted both ways in one snapshot (other test files write files
 * meanwhile); the bitmaps' statement must exist.
 */
async function bothWays(filter: Record<string, unknown>, reader: Reader) {
  await db.query('begin isolation level repeatable read');
  try {
    await db.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ role: 'authenticated', sub: seedAccounts[reader].id }),
    ]);
    const { rows } = await db.query<{ bitmaps: string | null; index: string }>(
      `select private.count_from_bitmaps_query(p, r.everything, r.uploader_id) as bitmaps,
              private.count_from_index_query(p, private.readable_files_condition()) as index
         from private.file_filter_parts($1::jsonb) p, private.readable_files_scope() r`,
      [JSON.stringify(filter)],
    );
    const { bitmaps, index } = rows[0]!;
    expect(bitmaps, 'the bitmaps hold this filter').not.toBeNull();
    const total = async (sql: string) => Number((await db.query<{ n: string }>(`select (${sql}) as n`)).rows[0]!.n);
    return { fromBitmaps: await total(bitmaps!), fromIndex: await total(index) };
  } finally {
    await db.query('rollback');
  }
}

const filters = (): Array<[string, Record<string, unknown>]> => [
  ['a word', { query: marker }],
  ['two words', { query: `piscina ${marker}` }],
  ['a word nobody has', { query: `${marker}zzz` }],
  ['images', { query: marker, type: 'image' }],
  ['documents', { query: marker, type: 'not-image' }],
  ['published', { query: marker, status: 'published' }],
  ['unpublished documents', { query: marker, status: 'unpublished', type: 'not-image' }],
  ['operations', { query: marker, operations: 'OPERATIONS' }],
  ['duplicates', { query: marker, duplicates: 'only' }],
  ['the tag', { query: marker, tagId }],
  ["the tag's name as a word", { query: `terraza${marker}` }],
  ['no filter', {}],
  ['documents alone', { type: 'not-image' }],
  ['the tag alone', { tagId }],
  ['published images', { type: 'image', status: 'published' }],
];

/** Every filter above, for both readers, counted the same both ways; the admin's word total is returned. */
async function expectSameTotals() {
  for (const reader of ['ADMIN', 'UPLOADER'] as const) {
    for (const [label, filter] of filters()) {
      const { fromBitmaps, fromIndex } = await bothWays(filter, reader);
      expect(fromBitmaps, `${label} as ${reader}`).toBe(fromIndex);
    }
  }
  return (await bothWays({ query: marker }, 'ADMIN')).fromBitmaps;
}

beforeAll(async () => {
  db = await adminDb();
  service = client('service_role');
  admin = client('anon');
  await admin.auth.signInWithPassword({ email: seedAccounts.ADMIN.email, password: seedAccounts.ADMIN.password });
  const category = await service.from('tag_categories').insert({ name_es: 'Zona', name_en: 'Area' }).select().single();
  categoryId = category.data!.id as string;
  const tag = await service
    .from('tags')
    .insert({ category_id: category.data!.id, name_es: `Terraza${marker}`, name_en: `Terrace${marker}` })
    .select()
    .single();
  tagId = tag.data!.id;
  const rows = Array.from({ length: 6 }, (_, i) => {
    const id = crypto.randomUUID();
    ids.push(id);
    const extension = i % 3 === 2 ? 'pdf' : 'jpg';
    return {
      id,
      file_name: `${i}.${extension}`,
      object_path: `${id}/${i}.${extension}`,
      original_file_name: `foto ${i}.${extension}`,
      name_es: i < 2 ? `Piscina ${marker}` : `Jardín ${marker}`,
      name_en: `Garden ${marker}`,
      uploader_id: i % 2 === 0 ? seedAccounts.UPLOADER.id : seedAccounts.ADMIN.id,
      // The last one is still being post-processed: the selection summary counts it apart.
      processing: i === 5,
      extension,
      published: i === 0 || i === 5,
      operations: i === 3,
    };
  });
  expect((await service.from('files').insert(rows, { defaultToNull: false })).error).toBeNull();
});

afterAll(async () => {
  await service.from('files').delete().in('id', ids);
  await db.end();
});

describe('a total counted from the bitmaps is the one counted from the index', () => {
  it('for new files, for an admin and for an uploader', async () => {
    expect(await expectSameTotals()).toBe(6);
    expect((await bothWays({ query: marker }, 'UPLOADER')).fromBitmaps).toBe(3);
    expect((await bothWays({ query: marker, type: 'not-image' }, 'ADMIN')).fromBitmaps).toBe(2);
  });

  it('after publishing, renaming, tagging and marking a duplicate', async () => {
    expect((await admin.rpc('publish_files', { p_published: true, p_file_ids: [ids[2], ids[3]] })).error).toBeNull();
    expect(
      (
        await service
          .from('files')
          .update({ name_es: `Piscina ${marker}` })
          .eq('id', ids[4]!)
      ).error,
    ).toBeNull();
    expect(
      (
        await service
          .from('files')
          .update({ name_es: `Solárium ${marker}` })
          .eq('id', ids[0]!)
      ).error,
    ).toBeNull();
    const tagged = await service
      .from('file_tags')
      .insert([ids[1], ids[2], ids[4]].map((id) => ({ file_id: id, tag_id: tagId })));
    expect(tagged.error).toBeNull();
    await db.query('update public.files set duplicate_of = $1 where id = $2', [ids[0], ids[5]]);
    expect(await expectSameTotals()).toBe(6);
    expect((await bothWays({ query: marker, tagId }, 'ADMIN')).fromBitmaps).toBe(3);
    expect((await bothWays({ query: `piscina ${marker}` }, 'ADMIN')).fromBitmaps).toBe(2);
  });

  it('after untagging, deleting and restoring', async () => {
    expect((await service.from('file_tags').delete().eq('file_id', ids[2]!).eq('tag_id', tagId)).error).toBeNull();
    expect((await admin.rpc('delete_files', { p_file_ids: [ids[1], ids[2]] })).error).toBeNull();
    expect(await expectSameTotals()).toBe(4);
    expect((await admin.rpc('restore_files', { p_file_ids: [ids[1]] })).error).toBeNull();
    expect(await expectSameTotals()).toBe(5);
    expect((await bothWays({ query: marker, tagId }, 'ADMIN')).fromBitmaps).toBe(2);
  });

  it('and the count_files the app calls agrees', async () => {
    const { data, error } = await admin.rpc('count_files', { p_filter: { query: marker, type: 'image' } });
    expect(error).toBeNull();
    expect(data).toBe((await bothWays({ query: marker, type: 'image' }, 'ADMIN')).fromIndex);
  });
});

describe("the summary behind 'Seleccionar todos'", () => {
  it('counts from the bitmaps what it reads row by row for the same files', async () => {
    for (const filter of [
      { query: marker },
      { query: marker, type: 'image' },
      { query: marker, status: 'unpublished' },
    ]) {
      const page = await admin.rpc('search_files', { p_filter: filter, p_limit: 1000 });
      expect(page.error).toBeNull();
      const [byFilter, byIds] = await Promise.all([
        admin.rpc('file_selection_summary', { p_filter: filter }),
        admin.rpc('file_selection_summary', { p_file_ids: (page.data as Array<{ id: string }>).map((row) => row.id) }),
      ]);
      expect(byFilter.error).toBeNull();
      expect(byFilter.data, JSON.stringify(filter)).toEqual(byIds.data);
    }
    const whole = await admin.rpc('file_selection_summary', { p_filter: { query: marker } });
    expect(whole.data).toEqual({ count: 5, published: 3, processing: 1, undeletable: 1 });
  });
});

describe('two people retagging different files at once', () => {
  // One swaps a file's tag B for A while the other swaps a file's A for B: each first takes the bitmap row
  // and the counter of the tag it removes, then wants the other's. Files of one block share those rows.
  it('both finish, without a deadlock', async () => {
    const newTag = async (letter: string) => {
      const tag = await service
        .from('tags')
        .insert({ category_id: categoryId, name_es: `Cruce ${letter}${marker}`, name_en: `Cross ${letter}${marker}` })
        .select()
        .single();
      expect(tag.error).toBeNull();
      return tag.data!.id as string;
    };
    const tagA = await newTag('A');
    const tagB = await newTag('B');
    const [x, y] = [ids[3]!, ids[4]!];
    await service.from('file_tags').insert([
      { file_id: x, tag_id: tagB },
      { file_id: y, tag_id: tagA },
    ]);
    const [first, second] = [await adminDb(), await adminDb()];
    const secondPid = (await second.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    try {
      await first.query('begin');
      await second.query('begin');
      await first.query('delete from public.file_tags where file_id = $1 and tag_id = $2', [x, tagB]);
      const secondSwap = (async () => {
        await second.query('delete from public.file_tags where file_id = $1 and tag_id = $2', [y, tagA]);
        await second.query('insert into public.file_tags (file_id, tag_id) values ($1, $2)', [y, tagB]);
        await second.query('commit');
      })();
      // Let the second remove its link (or queue behind the first) before the first adds its own.
      // Read from a third session: a transaction sees pg_stat_activity as it was when it first looked.
      const waitingOnLock = eventually(async () => {
        const rows = await queryOnce(
          stackInfo().adminDbUrl,
          `select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`,
          [secondPid],
        );
        return rows.length ? true : undefined;
      });
      await Promise.race([secondSwap, waitingOnLock]);
      await first.query('insert into public.file_tags (file_id, tag_id) values ($1, $2)', [x, tagA]);
      await first.query('commit');
      await secondSwap;
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    const tagged = async (tag: string) => (await bothWays({ query: marker, tagId: tag }, 'ADMIN')).fromBitmaps;
    expect([await tagged(tagA), await tagged(tagB)]).toEqual([1, 1]);
  });
});

describe('the bitmaps', () => {
  it('hold exactly one bit per term and facet of every index row, after everything above', async () => {
    const { rows } = await db.query<{ differing: number }>(
      `with expected as (
         select p.term_id, p.slot / 1024 as block, bit_or(set_bit(0::bit(1024), p.slot % 1024, 1)) as files
           from (select s.slot, t.term_id from private.file_search s cross join unnest(s.term_ids) as t(term_id)
                 union all
                 select s.slot, st.id from private.file_search s
                  cross join unnest(private.search_facet_terms(s.is_image, s.published, s.operations,
                                                               s.duplicate_of, s.uploader_id)) as f(term)
                   join private.search_terms st on st.term = f.term) p
          group by 1, 2
       ), kept as (
         select term_id, block, files from private.search_term_blocks where bit_count(files) > 0
       )
       select count(*)::int as differing
         from ((select * from expected except select * from kept) union all (select * from kept except select * from expected)) d`,
    );
    expect(rows[0]!.differing).toBe(0);
  });

  it('are read by no API role', async () => {
    for (const role of ['anon', 'authenticated']) {
      await db.query('begin');
      try {
        await db.query(`set local role ${role}`);
        await expect(db.query('select count(*) from private.search_term_blocks')).rejects.toThrow(/permission denied/);
      } finally {
        await db.query('rollback');
      }
    }
  });
});
