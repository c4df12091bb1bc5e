import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { postgresDb, client, signedInUser, stackInfo } from '../helpers/clients.ts';
import { runSupabaseCli, PROJECT_ROOT } from '@mediateca/stack';
import { seedAccounts } from '../helpers/seed.ts';

/** The business rules the database enforces whatever the UI does. */

const UPLOADER_ID = 'a0000000-0000-4000-8000-000000000002';
let admin: SupabaseClient;
let uploader: SupabaseClient;
let otherUploader: SupabaseClient;
let otherUploaderId = '';
let service: SupabaseClient;

const newFile = (uploaderId: string, extra: Record<string, unknown> = {}) => {
  const id = crypto.randomUUID();
  return {
    id,
    file_name: 'u.jpg',
    object_path: `${id}/u.jpg`,
    original_file_name: 'foto.jpg',
    name_es: 'foto',
    name_en: 'foto',
    size: 1234,
    uploader_id: uploaderId,
    uploader_email: 'x@test.local',
    extension: 'jpg',
    ...extra,
  };
};

async function signIn(email: string, password: string) {
  const supabase = client('anon');
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return supabase;
}

beforeAll(async () => {
  service = client('service_role');
  admin = await signIn(seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  uploader = await signIn(seedAccounts.UPLOADER.email, seedAccounts.UPLOADER.password);
  const other = await signedInUser();
  otherUploaderId = other.user.id;
  otherUploader = other.client;
  await service.from('staff').insert({ user_id: other.user.id, email: other.email, role: 'UPLOADER' });
});

describe('uploaders', () => {
  it('insert files as themselves, unpublished and processing', async () => {
    const ok = await uploader.from('files').insert(newFile(UPLOADER_ID)).select('published, processing, b2b').single();
    expect(ok.error).toBeNull();
    expect(ok.data).toEqual({ published: false, processing: true, b2b: true });

    expect((await uploader.from('files').insert(newFile(UPLOADER_ID, { published: true }))).error?.code).toBe('42501');
    expect((await uploader.from('files').insert(newFile(otherUploaderId))).error?.code).toBe('42501');
  });

  it('edit the texts of their own files but not the admin-only options', async () => {
    const file = newFile(UPLOADER_ID, { processing: false });
    await service.from('files').insert(file);
    const texts = await uploader
      .from('files')
      .update({ name_es: 'Nuevo nombre', description_en: 'New' })
      .eq('id', file.id)
      .select('name_es');
    expect(texts.data).toEqual([{ name_es: 'Nuevo nombre' }]);

    for (const patch of [
      { published: true },
      { b2b: false },
      { panorama: true },
      { operations: true },
      { processing: false, width: 10 },
    ]) {
      const { error } = await uploader.from('files').update(patch).eq('id', file.id);
      expect(error?.code, JSON.stringify(patch)).toBe('42501');
    }
    const publish = await uploader.rpc('publish_files', { p_published: true, p_file_ids: [file.id] });
    expect(publish.error?.hint).toBe('NOT_ADMIN');
    const { data } = await service.from('files').select('published').eq('id', file.id).single();
    expect(data?.published).toBe(false);
  });

  it("cannot see, change, tag or delete another uploader's file even through PostgREST directly", async () => {
    const file = newFile(otherUploaderId);
    await service.from('files').insert(file);
    expect((await uploader.from('files').select('id').eq('id', file.id)).data).toEqual([]);
    expect((await uploader.from('files').update({ name_es: 'robado' }).eq('id', file.id).select()).data).toEqual([]);
    expect((await uploader.from('files').delete().eq('id', file.id).select()).data).toEqual([]);
    expect(
      (await uploader.from('file_tags').insert({ file_id: file.id, tag_id: 'd0000000-0000-4000-8000-000000000001' }))
        .error?.code,
    ).toBe('42501');

    const raw = await fetch(`${stackInfo().apiUrl}/rest/v1/files?id=eq.${file.id}`, {
      method: 'PATCH',
      headers: {
        apikey: stackInfo().anonKey,
        authorization: `Bearer ${(await uploader.auth.getSession()).data.session!.access_token}`,
        'content-type': 'application/json',
        prefer: 'return=representation',
      },
      body: JSON.stringify({ published: true }),
    });
    expect(await raw.json()).toEqual([]);
    const { data } = await service.from('files').select('name_es, published').eq('id', file.id).single();
    expect(data).toEqual({ name_es: 'foto', published: false });
    expect((await otherUploader.from('files').select('id').eq('id', file.id)).data).toHaveLength(1);
  });

  it('replace their own file: size, names, object and processing change; publication does not', async () => {
    const file = newFile(UPLOADER_ID, { processing: false });
    await service.from('files').insert(file);
    // The new object is stored first; its size is the server's to record, whatever the client says.
    const bytes = 'a'.repeat(999);
    expect(
      (await service.storage.from('media').upload(`${file.id}/v2.png`, bytes, { contentType: 'image/png' })).error,
    ).toBeNull();
    const replaced = await uploader
      .from('files')
      .update({
        size: 5,
        original_file_name: 'nueva.png',
        file_name: 'v2.png',
        object_path: `${file.id}/v2.png`,
        extension: 'png',
        processing: true,
      })
      .eq('id', file.id)
      .select('size, original_file_name, is_image, processing')
      .single();
    expect(replaced.error).toBeNull();
    expect(replaced.data).toEqual({ size: 999, original_file_name: 'nueva.png', is_image: true, processing: true });
  });

  it('cannot assign collections through the file form', async () => {
    const file = newFile(UPLOADER_ID, { processing: false });
    await service.from('files').insert(file);
    const { error } = await uploader.rpc('update_file', {
      p_file_id: file.id,
      p_name_es: 'x',
      p_tag_ids: [],
      p_collection_ids: ['e0000000-0000-4000-8000-000000000001'],
    });
    expect(error?.hint).toBe('NOT_ADMIN');
    const { data } = await service.from('files').select('name_es').eq('id', file.id).single();
    expect(data?.name_es).toBe('foto');
  });
});

describe('admins', () => {
  it('save a file form atomically: texts, options, tags and collections', async () => {
    const file = newFile(UPLOADER_ID, { processing: false });
    await service.from('files').insert(file);
    const saved = await admin.rpc('update_file', {
      p_file_id: file.id,
      p_name_es: 'Vestíbulo',
      p_name_en: 'Lobby',
      p_b2b: false,
      p_operations: true,
      p_tag_ids: ['d0000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000002'],
      p_collection_ids: ['e0000000-0000-4000-8000-000000000002'],
    });
    expect(saved.error).toBeNull();
    expect(saved.data).toMatchObject({ name_es: 'Vestíbulo', name_en: 'Lobby', b2b: false, operations: true });
    expect((await service.from('file_tags').select('tag_id').eq('file_id', file.id)).data).toHaveLength(2);
    expect((await service.from('collection_files').select('collection_id').eq('file_id', file.id)).data).toEqual([
      { collection_id: 'e0000000-0000-4000-8000-000000000002' },
    ]);
  });

  it('delete files with their links and a trash job, refusing recent processing files', async () => {
    const busy = newFile(UPLOADER_ID, { processing: true });
    const done = newFile(UPLOADER_ID, { processing: false });
    const stale = newFile(UPLOADER_ID, {
      processing: true,
      uploaded_on: new Date(Date.now() - 2 * 3600_000).toISOString(),
    });
    await service.from('files').insert([busy, done, stale], { defaultToNull: false });
    await service.from('file_tags').insert({ file_id: done.id, tag_id: 'd0000000-0000-4000-8000-000000000001' });
    await service
      .from('collection_files')
      .insert({ collection_id: 'e0000000-0000-4000-8000-000000000001', file_id: done.id });

    const refused = await admin.rpc('delete_files', { p_file_ids: [busy.id, done.id] });
    expect(refused.error?.hint).toBe('FILES_PROCESSING');
    expect(refused.error?.message).toBe('No se pueden borrar archivos en proceso');
    expect((await service.from('files').select('id').in('id', [busy.id, done.id])).data).toHaveLength(2);

    const deleted = await admin.rpc('delete_files', { p_file_ids: [done.id, stale.id] });
    expect(deleted.data).toBe(2);
    expect((await service.from('files').select('id').in('id', [done.id, stale.id])).data).toEqual([]);
    expect((await service.from('file_tags').select('file_id').eq('file_id', done.id)).data).toEqual([]);
    expect((await service.from('collection_files').select('file_id').eq('file_id', done.id)).data).toEqual([]);
    const jobs = await service
      .from('trash_jobs')
      .select('file_id, object_path, pending')
      .in('file_id', [done.id, stale.id]);
    // Queued by the delete's own transaction; the worker may already have moved them (pending false).
    expect(jobs.data?.map((job) => job.object_path).sort()).toEqual([done.object_path, stale.object_path].sort());
  });

  it('delete a tag category with its tags and their file links', async () => {
    const category = (
      await admin.from('tag_categories').insert({ name_es: 'Efímera', name_en: 'Ephemeral' }).select().single()
    ).data!;
    const tag = (
      await admin.from('tags').insert({ category_id: category.id, name_es: 'Uno', name_en: 'One' }).select().single()
    ).data!;
    const file = newFile(UPLOADER_ID, { processing: false });
    await service.from('files').insert(file);
    await admin.from('file_tags').insert({ file_id: file.id, tag_id: tag.id });
    expect((await admin.from('tag_categories').delete().eq('id', category.id)).error).toBeNull();
    expect((await service.from('tags').select('id').eq('id', tag.id)).data).toEqual([]);
    expect((await service.from('file_tags').select('file_id').eq('file_id', file.id)).data).toEqual([]);
  });

  it('grant an academy user only private categories', async () => {
    // Its own academy user: the seed members belong to the academy members' tests.
    const { data: created, error } = await service
      .from('academy_users')
      .insert({ name: 'Regla de acceso', email: `regla-${crypto.randomUUID()}@test.local` })
      .select('id')
      .single();
    expect(error).toBeNull();
    const user = created!.id as string;
    const ok = await admin.rpc('set_academy_user_categories', {
      p_user_id: user,
      p_category_ids: ['b0000000-0000-4000-8000-000000000003'],
    });
    expect(ok.error).toBeNull();
    const wrong = await admin.rpc('set_academy_user_categories', {
      p_user_id: user,
      p_category_ids: ['b0000000-0000-4000-8000-000000000001'],
    });
    expect(wrong.error?.code).toBe('22023');
  });
});

describe('anonymous visitors', () => {
  it('cannot list files or collections (shared links go through get_public_file/get_public_collection)', async () => {
    const anon = client('anon');
    expect((await anon.from('files').select('id')).data ?? []).toEqual([]);
    expect((await anon.from('collections').select('id')).data ?? []).toEqual([]);
  });
});

describe('constraints', () => {
  it('refuse sizes over 1,000,000,000 bytes, empty names and unknown languages', async () => {
    expect((await service.from('files').insert(newFile(UPLOADER_ID, { size: 1_000_000_001 }))).error?.code).toBe(
      '23514',
    );
    expect((await service.from('files').insert(newFile(UPLOADER_ID, { name_es: '   ' }))).error?.code).toBe('23514');
    const video = await service
      .from('academy_videos')
      .insert({ youtube_id: 'abcdefghijk', youtube_url: 'https://youtu.be/abcdefghijk', title: 'x', language: 'fr' });
    expect(video.error?.code).toBe('23514');
  });
});

describe('Supabase advisors', () => {
  it('report no ERROR and no security WARN on the migrated database', async () => {
    const output = await runSupabaseCli(
      [
        'db',
        'advisors',
        `--remote=${stackInfo().dbUrl}`,
        '--type',
        'all',
        '--level',
        'info',
        '--output-format',
        'json',
      ],
      { cwd: PROJECT_ROOT },
    );
    const { results } = JSON.parse(output) as {
      results: Array<{ name: string; level: string; categories: string[]; detail: string }>;
    };
    const problems = results.filter(
      (r) => r.level === 'ERROR' || (r.level === 'WARN' && r.categories.includes('SECURITY')),
    );
    expect(problems.map((p) => `${p.level} ${p.name}: ${p.detail}`)).toEqual([]);
  });

  it('do flag a table without RLS, so the check above can fail', async () => {
    const db = await postgresDb();
    try {
      await db.query('create table public.advisor_canary (id int primary key)');
      const output = await runSupabaseCli(
        ['db', 'advisors', `--remote=${stackInfo().dbUrl}`, '--type', 'security', '--output-format', 'json'],
        { cwd: PROJECT_ROOT },
      );
      expect(output).toMatch(/rls_disabled_in_public/);
    } finally {
      await db.query('drop table if exists public.advisor_canary');
      await db.end();
    }
  });
});
