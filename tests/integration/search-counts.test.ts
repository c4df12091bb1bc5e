import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { adminDb, client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * count_files counts words from the search terms (letter-and-digit runs of each file's search text, kept by
 * triggers), tags and collections from their link tables, while search_files tests the text itself with
 * `like`. These hold the two to the same answer, and the terms to every way a file's text changes.
 */

let admin: SupabaseClient;
let service: SupabaseClient;
const marker = `qx${crypto.randomUUID().slice(0, 6)}`;
const ids: Record<string, string> = {};
let tagId = '';

/** Every file the page query finds (one page of up to 1000) and the heading's count, for one filter. */
async function pageAndCount(filter: Record<string, unknown>, as = admin) {
  const [page, count] = await Promise.all([
    as.rpc('search_files', { p_filter: filter, p_limit: 1000 }),
    as.rpc('count_files', { p_filter: filter }),
  ]);
  if (page.error) throw page.error;
  if (count.error) throw count.error;
  return { listed: (page.data as Array<{ id: string }>).length, counted: count.data as number };
}

beforeAll(async () => {
  service = client('service_role');
  admin = client('anon');
  await admin.auth.signInWithPassword({ email: seedAccounts.ADMIN.email, password: seedAccounts.ADMIN.password });
  const category = await service
    .from('tag_categories')
    .insert({ name_es: 'Lugar', name_en: 'Place' })
    .select()
    .single();
  const tag = await service
    .from('tags')
    .insert({ category_id: category.data!.id, name_es: `Azotea-${marker}`, name_en: `Rooftop ${marker}` })
    .select()
    .single();
  tagId = tag.data!.id;
  const file = (key: string, fields: Record<string, unknown>) => {
    const id = crypto.randomUUID();
    ids[key] = id;
    return {
      id,
      file_name: `${key}.jpg`,
      object_path: `${id}/${key}.jpg`,
      original_file_name: `IMG_${marker}_${key}.jpg`,
      name_en: `${key} ${marker}`,
      uploader_id: seedAccounts.UPLOADER.id,
      processing: false,
      extension: 'jpg',
      ...fields,
    };
  };
  const inserted = await service.from('files').insert(
    [
      file('uno', {
        name_es: `Piscina climatizada ${marker}`,
        description_es: 'Vista al mar, 3ª planta. Reformada esta década.',
      }),
      file('dos', { name_es: `Habitación doble ${marker}`, description_es: 'Cama king-size; baño-turco' }),
      file('tres', { name_es: `Ñandú del jardín ${marker}`, extension: 'pdf', published: true }),
    ],
    { defaultToNull: false },
  );
  expect(inserted.error).toBeNull();
  expect((await service.from('file_tags').insert({ file_id: ids.dos, tag_id: tagId })).error).toBeNull();
});

describe('the heading counts what the page lists', () => {
  it.each([
    ['one word', () => ({ query: marker })],
    ['part of a word, any case and accent', () => ({ query: `CLIMATIZ ${marker}` })],
    ['an accented letter typed plain', () => ({ query: `nandu ${marker}` })],
    ['a word with a dash, matched across it', () => ({ query: `king-size ${marker}` })],
    ['half of a dashed word', () => ({ query: `turco ${marker}` })],
    ['an ordinal and punctuation', () => ({ query: `3ª ${marker}` })],
    ['the original file name with its underscores', () => ({ query: `img_${marker}_dos` })],
    ['part of the original file name', () => ({ query: `${marker}_tr` })],
    ["a tag's dashed name", () => ({ query: `azotea-${marker}` })],
    ["a tag's English name", () => ({ query: `rooftop` })],
    ['a piece of the id', () => ({ query: ids.tres!.slice(0, 8) })],
    ['a piece of the id across a dash', () => ({ query: ids.tres!.slice(4, 13) })],
    ['a word nobody has', () => ({ query: `${marker}zzz` })],
    ['words and the tag', () => ({ query: marker, tagId })],
    ['words and a type', () => ({ query: marker, type: 'not-image' })],
    ['words and a status', () => ({ query: marker, status: 'published' })],
    ['words, a type and the tag', () => ({ query: marker, type: 'image', tagId })],
    ["words and 'Sin traducir'", () => ({ query: marker, translation: 'missing' })],
    ['a dashed word and a type', () => ({ query: `king-size ${marker}`, type: 'image' })],
    ['the tag and a status', () => ({ tagId, status: 'unpublished' })],
  ])('%s', async (_label, filter) => {
    const { listed, counted } = await pageAndCount(filter());
    expect(counted).toBe(listed);
  });

  it('finds words of hexadecimal digits, which are matched on the text (an id is in it, not in the index terms)', async () => {
    // 'década' → 'decada': letters a–f only, so it could be part of an id and is read from the text.
    expect(await pageAndCount({ query: `DÉCADA ${marker}` })).toEqual({ listed: 1, counted: 1 });
    expect(await pageAndCount({ query: ids.tres!.slice(0, 8) })).toEqual({ listed: 1, counted: 1 });
    expect(await pageAndCount({ query: ids.tres!.slice(-12) })).toEqual({ listed: 1, counted: 1 });
  });

  it('counts for an uploader only their own files, as the page lists them', async () => {
    const uploader = client('anon');
    await uploader.auth.signInWithPassword({
      email: seedAccounts.UPLOADER.email,
      password: seedAccounts.UPLOADER.password,
    });
    const { listed, counted } = await pageAndCount({ query: marker }, uploader);
    expect(listed).toBe(3);
    expect(counted).toBe(3);
  });
});

/**
 * Rows of `sql` read as the ADMIN, in a transaction rolled back afterwards, with search_files' cut-off
 * (mediateca.search_candidates_limit) set to `cutOff` when given.
 */
async function readAsAdmin<Row extends object>(
  db: Awaited<ReturnType<typeof adminDb>>,
  cutOff: string | null,
  sql: string,
  params: unknown[],
): Promise<Row[]> {
  await db.query('begin');
  try {
    await db.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ role: 'authenticated', sub: seedAccounts.ADMIN.id }),
    ]);
    if (cutOff !== null) await db.query(`select set_config('mediateca.search_candidates_limit', $1, true)`, [cutOff]);
    await db.query('set local role authenticated');
    return (await db.query(sql, params)).rows as Row[];
  } finally {
    await db.query('rollback');
  }
}

describe('a page is the same whichever way it is read', () => {
  // search_files reads the index first when few files match (always, at this library's size) and walks the
  // sort order otherwise; mediateca.search_candidates_limit = 0 leaves the index aside and reads the sort order
  // with the whole filter, as search_files does when a capped walk comes back short.
  it.each([
    ['one word', { query: marker }],
    ['a word and a type', { query: marker, type: 'image' }],
    ['a dashed word', { query: `king-size ${marker}` }],
    ["a tag's name", { query: 'rooftop' }],
    ['a word nobody has', { query: `${marker}zzz` }],
  ])('%s', async (_label, filter) => {
    const db = await adminDb();
    try {
      const page = async (cutOff: string | null) =>
        (
          await readAsAdmin<{ id: string }>(
            db,
            cutOff,
            `select id from public.search_files($1::jsonb, 'nameEs_asc', 1000)`,
            [JSON.stringify(filter)],
          )
        ).map((row) => row.id);
      const fromIndex = await page(null);
      expect(await page('0')).toEqual(fromIndex);
      expect(fromIndex).toHaveLength((await pageAndCount(filter)).counted);
    } finally {
      await db.end();
    }
  });
});

describe('a walk capped at one file', () => {
  // When the planner expects more candidates than the cut-off, search_files walks the sort order over at most
  // that many files first, testing each file's index row by its key, and falls back when the page comes back
  // short. With the cut-off at 1, a page of one file after a match is found by the capped walk (the three
  // files share an upload time, so they are next to each other), and the first page by the fallback; both
  // must agree with the page read from the index, whatever else the filter holds besides indexed words.
  it.each([
    ['one word', () => ({ query: marker })],
    ['two words', () => ({ query: `nandu ${marker}` })],
    ["a tag's name", () => ({ query: 'rooftop' })],
    ['a dashed word and a word', () => ({ query: `king-size ${marker}` })],
    ['a word and a type', () => ({ query: marker, type: 'image' })],
    ['a word and the tag', () => ({ query: marker, tagId })],
    ["a word and 'Sin traducir'", () => ({ query: marker, translation: 'missing' })],
  ])('%s: pages one file at a time in the order the index gives', async (_label, filter) => {
    const db = await adminDb();
    try {
      await db.query('analyze private.file_search');
      const page = (cutOff: string | null, pageSize: number, after: { key: string; id: string } | null) =>
        readAsAdmin<{ id: string; key: string }>(
          db,
          cutOff,
          `select id, uploaded_on::text as key
             from public.search_files($1::jsonb, 'uploadedOn_desc', $2, $3, $4::uuid)`,
          [JSON.stringify(filter()), pageSize, after?.key ?? null, after?.id ?? null],
        );
      const fromIndex = (await page(null, 1000, null)).map((row) => row.id);
      const paged: string[] = [];
      let last: { key: string; id: string } | null = null;
      for (;;) {
        const [row] = await page('1', 1, last);
        if (!row) break;
        paged.push(row.id);
        last = row;
      }
      expect(fromIndex.length).toBeGreaterThan(0);
      expect(paged).toEqual(fromIndex);
    } finally {
      await db.end();
    }
  });
});

describe('a word inside hundreds of terms is matched on the text instead', () => {
  it('pages and counts the same files, whichever way', async () => {
    // 300 files whose names hold 300 different terms containing the same piece, as numbers and ids do.
    const piece = `zz${crypto.randomUUID().slice(0, 5)}`;
    const rows = Array.from({ length: 300 }, (_, i) => {
      const id = crypto.randomUUID();
      return {
        id,
        file_name: `${i}.jpg`,
        object_path: `${id}/${i}.jpg`,
        original_file_name: `${i}.jpg`,
        name_es: `Serie ${piece}${i}`,
        name_en: `Series ${piece}${i}`,
        uploader_id: seedAccounts.ADMIN.id,
        processing: false,
        extension: 'jpg',
      };
    });
    expect((await service.from('files').insert(rows)).error).toBeNull();
    try {
      const { listed, counted } = await pageAndCount({ query: piece });
      expect(counted).toBe(300);
      expect(listed).toBe(300);
      expect((await pageAndCount({ query: `${piece}42` })).counted).toBe(1);
    } finally {
      await service
        .from('files')
        .delete()
        .in(
          'id',
          rows.map((row) => row.id),
        );
    }
  });
});

describe('the search terms follow every change to a file', () => {
  const count = async (query: string) => (await pageAndCount({ query })).counted;

  it('a renamed file, a renamed tag, a removed tag', async () => {
    await service
      .from('files')
      .update({ name_es: `Solárium ${marker}` })
      .eq('id', ids.uno!);
    expect(await count(`solarium ${marker}`)).toBe(1);
    expect(await count(`climatizada ${marker}`)).toBe(0);

    await service
      .from('tags')
      .update({ name_en: `Terrace${marker}` })
      .eq('id', tagId);
    expect(await count(`terrace${marker}`)).toBe(1);
    await service.from('file_tags').delete().eq('file_id', ids.dos!).eq('tag_id', tagId);
    expect(await count(`terrace${marker}`)).toBe(0);
  });

  it('a published or unpublished file moves between the status counts', async () => {
    const published = async () => (await pageAndCount({ query: marker, status: 'published' })).counted;
    const before = await published();
    expect((await admin.rpc('publish_files', { p_published: true, p_file_ids: [ids.dos] })).error).toBeNull();
    expect(await published()).toBe(before + 1);
    expect((await admin.rpc('publish_files', { p_published: false, p_file_ids: [ids.dos] })).error).toBeNull();
    expect(await published()).toBe(before);
  });

  it('a deleted file leaves the count, a restored one comes back', async () => {
    const before = await count(marker);
    expect((await admin.rpc('delete_files', { p_file_ids: [ids.tres] })).error).toBeNull();
    expect(await count(marker)).toBe(before - 1);
    expect((await admin.rpc('restore_files', { p_file_ids: [ids.tres] })).error).toBeNull();
    expect(await count(marker)).toBe(before);
  });

  it('every file has its search index row, holding exactly the terms of its words and tags and its filter columns', async () => {
    const db = await adminDb();
    try {
      const { rows } = await db.query<{ stale: number }>(
        `select count(*)::int as stale from public.files f
           left join private.file_search s on s.file_id = f.id
          where s.file_id is null
             or s.term_ids is distinct from array(
                  select t.id
                    from (select w.term from private.search_text_terms(private.file_search_words(f)) as w(term)
                          union
                          select private.tag_search_term(ft.tag_id) from public.file_tags ft where ft.file_id = f.id) as w
                    join private.search_terms t on t.term = w.term order by 1)
             or (s.is_image, s.published, s.operations, s.duplicate_of, s.uploader_id)
                is distinct from (f.is_image, f.published, f.operations, f.duplicate_of, f.uploader_id)`,
      );
      expect(rows[0]!.stale).toBe(0);
    } finally {
      await db.end();
    }
  });
});
