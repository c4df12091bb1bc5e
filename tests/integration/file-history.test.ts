import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { client, signedInSeed } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { seedAccounts, seedTags } from '../helpers/seed.ts';

/**
 * Historial: the database records every change to a file, whoever makes it, and nobody can
 * rewrite that record through the API — not even the service role.
 */
let admin: SupabaseClient;
let uploader: SupabaseClient;

beforeAll(async () => {
  admin = await signedInSeed('ADMIN');
  uploader = await signedInSeed('UPLOADER');
});

const historyOf = async (as: SupabaseClient, fileId: string) => {
  const { data, error } = await as
    .from('file_history')
    .select('action, changes, changed_by, changed_by_email')
    .eq('file_id', fileId)
    .order('id');
  expect(error).toBeNull();
  return data!;
};

describe('file history', () => {
  it('records who changed which field from what to what, tags and publication included', async () => {
    const [id] = await insertFiles(`hist${crypto.randomUUID().slice(0, 6)}`, 1, { processing: false });
    const version = (await admin.from('files').select('updated_at').eq('id', id!).single()).data!;
    const save = await admin.rpc('update_file', {
      p_file_id: id!,
      p_name_en: 'Main pool',
      p_tag_ids: [seedTags.piscina],
      p_expected_updated_at: version.updated_at,
      p_expected_tag_ids: [],
    });
    expect(save.error).toBeNull();
    expect((await admin.rpc('publish_files', { p_published: true, p_file_ids: [id!] })).error).toBeNull();

    const history = await historyOf(admin, id!);
    expect(history.map((row) => row.action)).toEqual(['created', 'edited', 'tagged', 'published']);
    const edit = history[1]!;
    expect(edit.changes).toEqual({ name_en: { old: expect.any(String), new: 'Main pool' } });
    expect(edit).toMatchObject({ changed_by: seedAccounts.ADMIN.id, changed_by_email: seedAccounts.ADMIN.email });
    expect(history[2]!.changes).toEqual({ tag: 'Piscina' });
  });

  it('records rights changes like any other field, only those that changed', async () => {
    const [id] = await insertFiles(`histr${crypto.randomUUID().slice(0, 6)}`, 1, { processing: false });
    const version = (await admin.from('files').select('updated_at').eq('id', id!).single()).data!;
    const save = await admin.rpc('update_file', {
      p_file_id: id!,
      p_tag_ids: [],
      p_expected_updated_at: version.updated_at,
      p_expected_tag_ids: [],
      p_save_rights: true,
      p_rights_creator: 'Ana Ruiz',
      p_rights_credit: '',
      p_rights_copyright: '',
      p_rights_license: 'author_ceded',
      p_rights_usage_terms: '',
      p_rights_expire_on: '2099-12-31',
      p_rights_release: 'yes',
    });
    expect(save.error).toBeNull();

    const history = await historyOf(admin, id!);
    expect(history.map((row) => row.action)).toEqual(['created', 'edited']);
    expect(history[1]!.changes).toEqual({
      rights_creator: { old: '', new: 'Ana Ruiz' },
      rights_license: { old: null, new: 'author_ceded' },
      rights_expire_on: { old: null, new: '2099-12-31' },
      rights_release: { old: null, new: 'yes' },
    });
  });

  it('shows an uploader the history of their own files only', async () => {
    const [own] = await insertFiles(`histu${crypto.randomUUID().slice(0, 6)}`, 1, {
      uploader_id: seedAccounts.UPLOADER.id,
    });
    const [other] = await insertFiles(`histo${crypto.randomUUID().slice(0, 6)}`, 1);
    expect((await historyOf(uploader, own!)).map((row) => row.action)).toEqual(['created']);
    expect(await historyOf(uploader, other!)).toEqual([]);
  });

  it('cannot be written, changed or deleted through the API, by staff or by the service role', async () => {
    const [id] = await insertFiles(`histw${crypto.randomUUID().slice(0, 6)}`, 1);
    for (const as of [admin, client('service_role')]) {
      const insert = await as.from('file_history').insert({ file_id: id!, action: 'edited' });
      expect(insert.error?.code).toBe('42501');
      const update = await as.from('file_history').update({ action: 'deleted' }).eq('file_id', id!).select();
      expect(update.error?.code).toBe('42501');
      const remove = await as.from('file_history').delete().eq('file_id', id!).select();
      expect(remove.error?.code).toBe('42501');
    }
    expect((await historyOf(admin, id!)).map((row) => row.action)).toEqual(['created']);
  });
});
