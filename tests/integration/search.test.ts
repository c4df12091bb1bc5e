import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * search_files: every word must match (accent- and case-insensitive) the id, names, descriptions, original
 * name or tag names; filters and sorts of the files screen; keyset pages; count_files's totals for the heading.
 */

interface SearchResult {
  total: number;
  files: Array<{ id: string; name_es: string; size: number; uploaded_on: string; published: boolean }>;
}

let admin: SupabaseClient;
let service: SupabaseClient;
const marker = `zq${crypto.randomUUID().slice(0, 6)}`;
const ids: Record<string, string> = {};
let tagId = '';
let collectionId = '';
/** A collection holding the four files, for filtering them without a text query. */
let everyFileCollectionId = '';

type Row = SearchResult['files'][number];

/** The first page and the total, as the files screen reads them (two requests side by side). */
async function search(filter: Record<string, unknown>, sort = 'uploadedOn_desc', as = admin): Promise<SearchResult> {
  const [page, count] = await Promise.all([
    as.rpc('search_files', { p_filter: filter, p_sort: sort, p_limit: 100 }),
    as.rpc('count_files', { p_filter: filter }),
  ]);
  if (page.error) throw page.error;
  if (count.error) throw count.error;
  return { total: count.data as number, files: page.data as Row[] };
}

/** The page after `last`, with the sort key the app sends for it (see cursorAfter in search-files.ts). */
async function pageAfter(filter: Record<string, unknown>, sort: string, last: Row | null, limit: number) {
  const key = !last
    ? null
    : sort.startsWith('size')
      ? String(last.size)
      : sort.startsWith('nameEs')
        ? last.name_es
        : last.uploaded_on;
  const { data, error } = await admin.rpc('search_files', {
    p_filter: filter,
    p_sort: sort,
    p_limit: limit,
    ...(last ? { p_after_key: key, p_after_id: last.id } : {}),
  });
  if (error) throw error;
  return data as Row[];
}

const names = (result: SearchResult) => result.files.map((f) => f.name_es);

beforeAll(async () => {
  service = client('service_role');
  admin = client('anon');
  await admin.auth.signInWithPassword({ email: seedAccounts.ADMIN.email, password: seedAccounts.ADMIN.password });
  const category = await service
    .from('tag_categories')
    .insert({ name_es: 'Ambiente', name_en: 'Mood' })
    .select()
    .single();
  const tag = await service
    .from('tags')
    .insert({ category_id: category.data!.id, name_es: `Nocturno${marker}`, name_en: `Night${marker}` })
    .select()
    .single();
  tagId = tag.data!.id;
  const make = (key: string, nameEs: string, extra: Record<string, unknown>, minutesAgo: number) => {
    const id = crypto.randomUUID();
    ids[key] = id;
    return {
      id,
      file_name: `${key}.x`,
      object_path: `${id}/${key}.x`,
      original_file_name: `${key}-${marker}.${extra.extension}`,
      name_es: `${nameEs} ${marker}`,
      name_en: `${key} ${marker}`,
      uploader_id: 'a0000000-0000-4000-8000-000000000001',
      uploaded_on: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      processing: false,
      ...extra,
    };
  };
  const inserted = await service
    .from('files')
    .insert(
      [
        make('cancion', 'Canción de bienvenida', { extension: 'mp3', size: 500, published: true }, 5),
        make(
          'playa',
          'Playa del Carmen',
          { extension: 'jpg', size: 9000, published: false, description_es: 'Arena blanca' },
          4,
        ),
        make('arena', 'Árbol junto al mar', { extension: 'png', size: 100, published: true, operations: true }, 3),
        make('noche', 'Terraza', { extension: 'pdf', size: 3000, published: false }, 2),
      ],
      { defaultToNull: false },
    );
  expect(inserted.error).toBeNull();
  await service.from('file_tags').insert({ file_id: ids.noche, tag_id: tagId });
  const collection = await service
    .from('collections')
    .insert({ name: `Col ${marker}` })
    .select()
    .single();
  collectionId = collection.data!.id;
  await service.from('collection_files').insert([{ collection_id: collectionId, file_id: ids.playa }]);
  const everyFile = await service
    .from('collections')
    .insert({ name: `Todo ${marker}` })
    .select()
    .single();
  everyFileCollectionId = everyFile.data!.id;
  const linked = await service
    .from('collection_files')
    .insert(Object.values(ids).map((fileId) => ({ collection_id: everyFileCollectionId, file_id: fileId })));
  expect(linked.error).toBeNull();
});

describe('search words', () => {
  it("finds 'Canción' with 'cancion' and 'CANCIÓN'", async () => {
    expect(names(await search({ query: `cancion ${marker}` }))).toEqual([`Canción de bienvenida ${marker}`]);
    expect(names(await search({ query: `CANCIÓN ${marker}` }))).toEqual([`Canción de bienvenida ${marker}`]);
  });

  it('requires every word to match', async () => {
    expect(names(await search({ query: `playa ${marker}` }))).toEqual([`Playa del Carmen ${marker}`]);
    expect((await search({ query: `playa cancion ${marker}` })).total).toBe(0);
  });

  it('matches descriptions, original file names and ids', async () => {
    expect(names(await search({ query: `arena blanca ${marker}` }))).toEqual([`Playa del Carmen ${marker}`]);
    expect(names(await search({ query: `noche-${marker}.pdf` }))).toEqual([`Terraza ${marker}`]);
    expect(names(await search({ query: ids.arena!.slice(0, 13) }))).toEqual([`Árbol junto al mar ${marker}`]);
  });

  it("finds a file by its tag's name, and follows a renamed tag", async () => {
    expect(names(await search({ query: `nocturno${marker}` }))).toEqual([`Terraza ${marker}`]);
    expect(names(await search({ query: `night${marker}` }))).toEqual([`Terraza ${marker}`]);
    await service
      .from('tags')
      .update({ name_es: `Velada${marker}` })
      .eq('id', tagId);
    expect(names(await search({ query: `velada${marker}` }))).toEqual([`Terraza ${marker}`]);
    expect((await search({ query: `nocturno${marker}` })).total).toBe(0);
  });

  it('treats LIKE wildcards in the query as plain characters', async () => {
    expect((await search({ query: `%${marker}` })).total).toBe(0);
    expect((await search({ query: `_ ${marker}` })).total).toBe(0);
  });
});

describe('filters', () => {
  it('filters by type', async () => {
    expect(names(await search({ query: marker, type: 'image' })).sort()).toEqual(
      [`Playa del Carmen ${marker}`, `Árbol junto al mar ${marker}`].sort(),
    );
    expect((await search({ query: marker, type: 'not-image' })).total).toBe(2);
  });

  it('filters by status', async () => {
    expect((await search({ query: marker, status: 'published' })).total).toBe(2);
    expect((await search({ query: marker, status: 'unpublished' })).total).toBe(2);
  });

  it('filters by operations, tag and collection', async () => {
    expect(names(await search({ query: marker, operations: 'OPERATIONS' }))).toEqual([`Árbol junto al mar ${marker}`]);
    expect(names(await search({ tagId }))).toEqual([`Terraza ${marker}`]);
    expect(names(await search({ collectionId }))).toEqual([`Playa del Carmen ${marker}`]);
  });

  it('rejects unknown filter values with a clear error', async () => {
    const { error } = await admin.rpc('search_files', { p_filter: { type: 'video' } });
    expect(error?.message).toMatch(/Unknown file type filter/);
    const sort = await admin.rpc('search_files', { p_filter: {}, p_sort: 'colour_asc' });
    expect(sort.error?.message).toMatch(/invalid input value for enum file_sort: "colour_asc"/);
    const count = await admin.rpc('count_files', { p_filter: { status: 'hidden' } });
    expect(count.error?.message).toMatch(/Unknown status filter/);
  });
});

describe('sorts', () => {
  const all = [`Canción de bienvenida`, `Playa del Carmen`, `Árbol junto al mar`, `Terraza`].map(
    (n) => `${n} ${marker}`,
  );
  it.each([
    ['uploadedOn_desc', [all[3], all[2], all[1], all[0]]],
    ['uploadedOn_asc', [all[0], all[1], all[2], all[3]]],
    ['size_desc', [all[1], all[3], all[0], all[2]]],
    ['size_asc', [all[2], all[0], all[3], all[1]]],
    ['nameEs_asc', [all[2], all[0], all[1], all[3]]],
    ['nameEs_desc', [all[3], all[1], all[0], all[2]]],
  ])('sorts by %s', async (sort, expected) => {
    // A text query and a filter without one take different plans in search_files: both must agree.
    expect(names(await search({ query: marker }, sort))).toEqual(expected);
    expect(names(await search({ collectionId: everyFileCollectionId }, sort))).toEqual(expected);
  });

  it.each(['uploadedOn_desc', 'uploadedOn_asc', 'size_desc', 'size_asc', 'nameEs_asc', 'nameEs_desc'])(
    'pages one file at a time by keyset in the order of one whole page (%s)',
    async (sort) => {
      for (const filter of [{ query: marker }, { collectionId: everyFileCollectionId }]) {
        const whole = (await search(filter, sort)).files.map((file) => file.id);
        const paged: string[] = [];
        let last: Row | null = null;
        for (;;) {
          const page = await pageAfter(filter, sort, last, 1);
          if (page.length === 0) break;
          paged.push(page[0]!.id);
          last = page[0]!;
        }
        expect(paged).toEqual(whole);
        expect(whole).toHaveLength(4);
      }
    },
  );

  it('does not shift the next page when a file is uploaded or deleted meanwhile', async () => {
    const filter = { query: marker };
    const first = await pageAfter(filter, 'uploadedOn_desc', null, 2);
    // Newest of all: with an offset, it would push the second file onto the next page again.
    const newcomerId = crypto.randomUUID();
    const inserted = await service.from('files').insert({
      id: newcomerId,
      file_name: 'nuevo.x',
      object_path: `${newcomerId}/nuevo.x`,
      original_file_name: `nuevo-${marker}.pdf`,
      name_es: `Recién llegado ${marker}`,
      name_en: `Newcomer ${marker}`,
      extension: 'pdf',
      uploader_id: 'a0000000-0000-4000-8000-000000000001',
      processing: false,
    });
    expect(inserted.error).toBeNull();
    try {
      const second = await pageAfter(filter, 'uploadedOn_desc', first.at(-1)!, 2);
      expect([...first, ...second].map((file) => file.name_es)).toEqual(
        [`Terraza`, `Árbol junto al mar`, `Playa del Carmen`, `Canción de bienvenida`].map((n) => `${n} ${marker}`),
      );
    } finally {
      await service.from('files').delete().eq('id', newcomerId);
    }
  });

  it('counts every match whatever page is read', async () => {
    for (const filter of [{ query: marker }, { collectionId: everyFileCollectionId }]) {
      expect((await admin.rpc('count_files', { p_filter: filter })).data).toBe(4);
    }
    expect((await admin.rpc('count_files', { p_filter: { query: marker, type: 'image' } })).data).toBe(2);
  });

  it('refuses a page that names a file without its sort key', async () => {
    const { error } = await admin.rpc('search_files', { p_filter: {}, p_after_id: ids.noche });
    expect(error?.message).toMatch(/starts after a file id and its sort key/);
  });
});

describe('acting on all filtered files', () => {
  it('summarises and publishes every filtered file without listing ids', async () => {
    const filter = { query: marker, status: 'unpublished' };
    const summary = await admin.rpc('file_selection_summary', { p_filter: filter });
    expect(summary.data).toMatchObject({ count: 2, published: 0 });
    const published = await admin.rpc('publish_files', { p_published: true, p_filter: filter });
    expect(published.data).toBe(2);
    expect((await search({ query: marker, status: 'published' })).total).toBe(4);
  });
});

describe('who finds what', () => {
  // search_files and count_files run as their owner (for the trigram index; see their migration) and apply
  // the files policy themselves: they must find exactly what RLS lets each person read.
  it('gives an uploader their own files only, the same set RLS shows them', async () => {
    const uploader = client('anon');
    await uploader.auth.signInWithPassword({
      email: seedAccounts.UPLOADER.email,
      password: seedAccounts.UPLOADER.password,
    });
    const ownId = crypto.randomUUID();
    const inserted = await service.from('files').insert({
      id: ownId,
      file_name: 'propio.x',
      object_path: `${ownId}/propio.x`,
      original_file_name: `propio-${marker}.jpg`,
      name_es: `Propio ${marker}`,
      name_en: `Own ${marker}`,
      extension: 'jpg',
      uploader_id: seedAccounts.UPLOADER.id,
      processing: false,
    });
    expect(inserted.error).toBeNull();
    try {
      const found = await search({ query: marker }, 'uploadedOn_desc', uploader);
      expect(found.files.map((file) => file.id)).toEqual([ownId]);
      expect(found.total).toBe(1);
      // The selection bar's summary of 'Seleccionar todos' counts the same set.
      const summary = await uploader.rpc('file_selection_summary', { p_filter: { query: marker } });
      expect(summary.data).toMatchObject({ count: 1 });
      const everyMarkedId = (await search({ query: marker })).files.map((file) => file.id);
      expect(everyMarkedId).toHaveLength(5);
      const byIds = await uploader.rpc('file_selection_summary', { p_file_ids: everyMarkedId });
      expect(byIds.data).toMatchObject({ count: 1 });
      expect((await admin.rpc('file_selection_summary', { p_filter: { query: marker } })).data).toMatchObject({
        count: 5,
      });
      const readable = await uploader.from('files').select('id').ilike('name_en', `%${marker}%`);
      expect(readable.data?.map((row) => row.id)).toEqual([ownId]);
      // The admin finds the four of the other uploader too.
      expect((await search({ query: marker })).total).toBe(5);
      const signedOut = client('anon');
      expect((await signedOut.rpc('search_files', { p_filter: { query: marker } })).error?.code).toBe('42501');
      expect((await signedOut.rpc('file_selection_summary', { p_filter: {} })).error?.code).toBe('42501');
    } finally {
      await service.from('files').delete().eq('id', ownId);
    }
  });
});
