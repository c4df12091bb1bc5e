import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * search_files: every word must match (accent- and case-insensitive) the id, names, descriptions, original
 * name or tag names; filters and sorts of the files screen; totals for the heading.
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

async function search(filter: Record<string, unknown>, sort = 'uploadedOn_desc', as = admin): Promise<SearchResult> {
  const { data, error } = await as.rpc('search_files', { p_filter: filter, p_sort: sort, p_limit: 100, p_offset: 0 });
  if (error) throw error;
  return data as SearchResult;
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
    expect(sort.error?.message).toMatch(/Unknown sort/);
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

  it('pages with a stable total', async () => {
    const first = await admin.rpc('search_files', { p_filter: { query: marker }, p_limit: 3, p_offset: 0 });
    const second = await admin.rpc('search_files', { p_filter: { query: marker }, p_limit: 3, p_offset: 3 });
    expect((first.data as SearchResult).total).toBe(4);
    expect((first.data as SearchResult).files).toHaveLength(3);
    expect((second.data as SearchResult).files).toHaveLength(1);
  });

  it('still counts every match on a page past the end', async () => {
    for (const filter of [{ query: marker }, { collectionId: everyFileCollectionId }]) {
      const past = await admin.rpc('search_files', { p_filter: filter, p_limit: 3, p_offset: 10 });
      expect(past.error).toBeNull();
      expect(past.data).toEqual({ total: 4, files: [] });
    }
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
