import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { signedInSeed } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { seedTags } from '../helpers/seed.ts';

/**
 * No lost update: a save made against a version that someone else has changed since is refused
 * by the database, whatever the client does, and writes nothing.
 */
let admin: SupabaseClient;
let uploader: SupabaseClient;

beforeAll(async () => {
  admin = await signedInSeed('ADMIN');
  uploader = await signedInSeed('UPLOADER');
});

async function read(id: string) {
  const { data, error } = await admin
    .from('files')
    .select('name_es, name_en, updated_at, file_tags(tag_id)')
    .eq('id', id)
    .single();
  if (error) throw error;
  return { ...data, tagIds: data.file_tags.map((link) => link.tag_id) };
}

const save = (as: SupabaseClient, id: string, name: string, expected: { updatedAt: string; tagIds: string[] }) =>
  as.rpc('update_file', {
    p_file_id: id,
    p_name_es: name,
    p_tag_ids: expected.tagIds,
    p_expected_updated_at: expected.updatedAt,
    p_expected_tag_ids: expected.tagIds,
  });

describe('update_file refuses a save against a changed version', () => {
  it('lets the first of two editors save and refuses the second with FILE_CHANGED', async () => {
    const [id] = await insertFiles(`conf${crypto.randomUUID().slice(0, 6)}`, 1);
    const version = await read(id!);
    const first = await save(admin, id!, 'Versión de Ana', { updatedAt: version.updated_at, tagIds: [] });
    expect(first.error).toBeNull();
    const second = await save(admin, id!, 'Versión de Luis', { updatedAt: version.updated_at, tagIds: [] });
    expect(second.error).toMatchObject({
      code: 'PT409',
      hint: 'FILE_CHANGED',
      message: 'Otra persona ha cambiado este archivo',
    });
    expect((await read(id!)).name_es).toBe('Versión de Ana');
    // Saving again against the version that is there now goes through.
    const now = await read(id!);
    expect((await save(admin, id!, 'Versión de Luis', { updatedAt: now.updated_at, tagIds: [] })).error).toBeNull();
    expect((await read(id!)).name_es).toBe('Versión de Luis');
  });

  it('refuses a save when only the tags changed meanwhile (a bulk tag edit does not touch the row)', async () => {
    const [id] = await insertFiles(`conft${crypto.randomUUID().slice(0, 6)}`, 1);
    const version = await read(id!);
    const bulk = await admin.rpc('set_files_tags', { p_tag_ids: [seedTags.spa], p_file_ids: [id!] });
    expect(bulk.error).toBeNull();
    const stale = await save(admin, id!, 'Sin etiquetas', { updatedAt: version.updated_at, tagIds: [] });
    expect(stale.error?.hint).toBe('FILE_CHANGED');
    expect((await read(id!)).tagIds).toEqual([seedTags.spa]);
  });

  it('holds for an uploader editing their own file too', async () => {
    const [id] = await insertFiles(`confu${crypto.randomUUID().slice(0, 6)}`, 1, {
      uploader_id: 'a0000000-0000-4000-8000-000000000002',
    });
    const version = await read(id!);
    expect((await save(uploader, id!, 'Mía', { updatedAt: version.updated_at, tagIds: [] })).error).toBeNull();
    const stale = await save(uploader, id!, 'Mía otra vez', { updatedAt: version.updated_at, tagIds: [] });
    expect(stale.error?.hint).toBe('FILE_CHANGED');
  });
});

describe('bulk tagging by several people at once', () => {
  it('finishes every call on overlapping selections, without a deadlock, and leaves one call’s tags on all', async () => {
    const ids = await insertFiles(`bulk${crypto.randomUUID().slice(0, 6)}`, 40);
    const tagSets = [[seedTags.verano], [seedTags.spa], [seedTags.verano, seedTags.spa]];
    // Half the calls list the files one way, half the other: the order in which their links are met differs.
    const calls = Array.from({ length: 12 }, (_, n) =>
      admin.rpc('set_files_tags', {
        p_tag_ids: tagSets[n % tagSets.length]!,
        p_file_ids: n % 2 ? [...ids].reverse() : ids,
      }),
    );
    const results = await Promise.all(calls);
    expect(results.map((result) => result.error)).toEqual(results.map(() => null));
    const { data, error } = await admin.from('file_tags').select('file_id, tag_id').in('file_id', ids);
    expect(error).toBeNull();
    const tagsOf = (id: string) =>
      data!
        .filter((link) => link.file_id === id)
        .map((link) => link.tag_id)
        .sort()
        .join();
    // Overlapping calls take turns on the files, so the last one to finish decides every file's tags.
    expect(new Set(ids.map(tagsOf)).size).toBe(1);
  });
});
