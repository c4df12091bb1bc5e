import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { adminDb, client } from '../helpers/clients.ts';
import { seedAccounts, seedFiles } from '../helpers/seed.ts';

/**
 * The database rules behind the Etiquetas, Usuarios and Operaciones screens, called directly
 * through the API as each role, not through the UI: atomic category deletion, tag counts, the last-admin
 * rule, and the operations popup (who reads it, and that its message can never carry markup but <br>).
 */

let admin: SupabaseClient;
let uploader: SupabaseClient;
let front: SupabaseClient;
let operations: SupabaseClient;
let anon: SupabaseClient;
let service: SupabaseClient;
let originalPopup: { title: string; message: string; active: boolean };

async function signIn(role: keyof typeof seedAccounts) {
  const supabase = client('anon');
  const { error } = await supabase.auth.signInWithPassword(seedAccounts[role]);
  if (error) throw error;
  return supabase;
}

async function categoryWithTaggedFiles() {
  const category = await service
    .from('tag_categories')
    .insert({ name_es: 'Atómica', name_en: 'Atomic' })
    .select()
    .single();
  expect(category.error).toBeNull();
  const tags = await service
    .from('tags')
    .insert([
      { category_id: category.data.id, name_es: 'Uno', name_en: 'One' },
      { category_id: category.data.id, name_es: 'Dos', name_en: 'Two' },
    ])
    .select();
  expect(tags.error).toBeNull();
  const links = tags.data!.flatMap((tag) =>
    [seedFiles.piscina, seedFiles.suite].map((fileId) => ({ file_id: fileId, tag_id: tag.id })),
  );
  expect((await service.from('file_tags').insert(links)).error).toBeNull();
  return { categoryId: category.data.id as string, tagIds: tags.data!.map((tag) => tag.id as string) };
}

async function remaining(categoryId: string, tagIds: string[]) {
  const [categories, tags, links] = await Promise.all([
    service.from('tag_categories').select('id', { count: 'exact', head: true }).eq('id', categoryId),
    service.from('tags').select('id', { count: 'exact', head: true }).in('id', tagIds),
    service.from('file_tags').select('tag_id', { count: 'exact', head: true }).in('tag_id', tagIds),
  ]);
  return { categories: categories.count, tags: tags.count, links: links.count };
}

beforeAll(async () => {
  [admin, uploader, front, operations] = await Promise.all([
    signIn('ADMIN'),
    signIn('UPLOADER'),
    signIn('FRONT'),
    signIn('OPERATIONS'),
  ]);
  anon = client('anon');
  service = client('service_role');
  const popup = await service.from('operations_popup').select('title, message, active').eq('id', 1).single();
  originalPopup = popup.data!;
}, 120_000);

afterAll(async () => {
  await service?.from('operations_popup').update(originalPopup).eq('id', 1);
  await service?.from('tag_categories').delete().eq('name_es', 'Atómica');
});

describe('deleting a tag category', () => {
  it('removes the category, its tags and their file links in one statement', async () => {
    const { categoryId, tagIds } = await categoryWithTaggedFiles();
    expect(await remaining(categoryId, tagIds)).toEqual({ categories: 1, tags: 2, links: 4 });
    const { error } = await admin.from('tag_categories').delete().eq('id', categoryId);
    expect(error).toBeNull();
    expect(await remaining(categoryId, tagIds)).toEqual({ categories: 0, tags: 0, links: 0 });
  });

  it('is all or nothing: when removing one link fails, the category and every tag and link stay', async () => {
    const { categoryId, tagIds } = await categoryWithTaggedFiles();
    const db = await adminDb();
    // A fault injected behind the API: unlinking the second tag fails midway through the cascade.
    await db.query(`
      create function public.test_fail_unlink() returns trigger language plpgsql as $$
      begin raise exception 'fallo inyectado'; end $$;
      create trigger test_fail_unlink before delete on public.file_tags
        for each row when (old.tag_id = '${tagIds[1]}') execute function public.test_fail_unlink();`);
    try {
      const { error } = await admin.from('tag_categories').delete().eq('id', categoryId);
      expect(error?.message).toContain('fallo inyectado');
      expect(await remaining(categoryId, tagIds)).toEqual({ categories: 1, tags: 2, links: 4 });
    } finally {
      await db.query('drop trigger test_fail_unlink on public.file_tags; drop function public.test_fail_unlink();');
      await db.end();
    }
    expect((await admin.from('tag_categories').delete().eq('id', categoryId)).error).toBeNull();
    expect(await remaining(categoryId, tagIds)).toEqual({ categories: 0, tags: 0, links: 0 });
  });

  it('is refused to an uploader (nothing deleted)', async () => {
    const { categoryId, tagIds } = await categoryWithTaggedFiles();
    await uploader.from('tag_categories').delete().eq('id', categoryId);
    expect(await remaining(categoryId, tagIds)).toEqual({ categories: 1, tags: 2, links: 4 });
    await service.from('tag_categories').delete().eq('id', categoryId);
  });
});

describe('tag_file_counts', () => {
  it('gives admins the number of files of every tag, as file_tags has them', async () => {
    const { data: links } = await service.from('file_tags').select('tag_id');
    const expected = new Map<string, number>();
    for (const { tag_id } of links!) expected.set(tag_id, (expected.get(tag_id) ?? 0) + 1);
    const { data, error } = await admin.rpc('tag_file_counts');
    expect(error).toBeNull();
    expect(new Map(data.map((row: { tag_id: string; file_count: number }) => [row.tag_id, row.file_count]))).toEqual(
      expected,
    );
  });

  it('counts for an uploader only the links their RLS lets them see, and nothing for anon', async () => {
    const { data: own } = await service
      .from('file_tags')
      .select('tag_id, files!inner(uploader_id)')
      .eq('files.uploader_id', seedAccounts.UPLOADER.id);
    const { data } = await uploader.rpc('tag_file_counts');
    const total = (data as Array<{ file_count: number }>).reduce((sum, row) => sum + Number(row.file_count), 0);
    expect(total).toBe(own!.length);
    const asAnon = await anon.rpc('tag_file_counts');
    expect(asAnon.error?.code).toBe('42501');
  });
});

describe('the last ADMIN', () => {
  const admins = async () =>
    (await service.from('staff').select('user_id').eq('role', 'ADMIN').order('user_id')).data!.map(
      (row) => row.user_id,
    );

  it('cannot be demoted or deleted even by a direct service-role API call', async () => {
    const before = await admins();
    expect(before.length).toBeGreaterThan(0);
    const demote = await service.from('staff').update({ role: 'UPLOADER' }).eq('role', 'ADMIN');
    expect(demote.error?.message).toBe('No se puede quitar el último administrador.');
    const remove = await service.from('staff').delete().eq('role', 'ADMIN');
    expect(remove.error?.message).toBe('No se puede quitar el último administrador.');
    expect(await admins()).toEqual(before);
  });

  it('cannot be written by an admin over the API at all (staff is written only by the function)', async () => {
    const { data } = await admin
      .from('staff')
      .update({ role: 'UPLOADER' })
      .eq('user_id', seedAccounts.ADMIN.id)
      .select();
    expect(data ?? []).toEqual([]);
    expect((await admins()).includes(seedAccounts.ADMIN.id)).toBe(true);
  });

  it('an admin cannot demote or delete themselves through the staff-users function', async () => {
    for (const body of [
      { action: 'update-role', uid: seedAccounts.ADMIN.id, role: 'UPLOADER' },
      { action: 'delete', uid: seedAccounts.ADMIN.id },
    ]) {
      const { error } = await admin.functions.invoke('staff-users', { body });
      expect(error).toBeInstanceOf(FunctionsHttpError);
      const response = (error as FunctionsHttpError).context as Response;
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(
        /^No puedes (cambiar tu propio rol|borrar tu propio usuario)\.$/,
      );
    }
    expect((await admins()).includes(seedAccounts.ADMIN.id)).toBe(true);
  });

  it('another admin may be demoted while one remains; the function changes roles for admins only', async () => {
    const email = `segundo-admin-${crypto.randomUUID().slice(0, 8)}@mediateca.local`;
    const created = await admin.functions.invoke('staff-users', {
      body: { action: 'create', email, password: 'otra-clave-1', role: 'ADMIN' },
    });
    expect(created.error).toBeNull();
    const uid = (created.data as { uid: string }).uid;
    try {
      const byUploader = await uploader.functions.invoke('staff-users', {
        body: { action: 'update-role', uid, role: 'FRONT' },
      });
      expect(((byUploader.error as FunctionsHttpError).context as Response).status).toBe(403);
      const demoted = await admin.functions.invoke('staff-users', {
        body: { action: 'update-role', uid, role: 'FRONT' },
      });
      expect(demoted.error).toBeNull();
      expect((await service.from('staff').select('role').eq('user_id', uid).single()).data).toEqual({ role: 'FRONT' });
    } finally {
      await service.auth.admin.deleteUser(uid);
    }
  });
});

describe('the operations popup', () => {
  it('refuses a message with markup other than <br>, even from an admin calling the API directly', async () => {
    const raw = await admin
      .from('operations_popup')
      .update({ message: 'Hola<br><script>alert(1)</script>' })
      .eq('id', 1)
      .select();
    expect(raw.error?.code).toBe('23514');
    const img = await admin.from('operations_popup').update({ message: '<img src=x onerror=alert(1)>' }).eq('id', 1);
    expect(img.error?.code).toBe('23514');
  });

  it('gives the escaped message back to FRONT and OPERATIONS while active, and nothing to others', async () => {
    const stored = 'Aviso<br>&lt;script&gt;alert(1)&lt;/script&gt;';
    expect(
      (await admin.from('operations_popup').update({ title: 'Aviso', message: stored, active: true }).eq('id', 1))
        .error,
    ).toBeNull();
    for (const reader of [front, operations, admin]) {
      const { data, error } = await reader.rpc('active_operations_popup');
      expect(error).toBeNull();
      expect(data).toHaveLength(1);
      expect(data[0]).toMatchObject({ title: 'Aviso', message: stored });
      expect((data[0].message as string).replaceAll('<br>', '')).not.toMatch(/[<>]/);
    }
    expect((await uploader.rpc('active_operations_popup')).data).toEqual([]);
    expect((await anon.rpc('active_operations_popup')).error?.code).toBe('42501');
    // The table itself stays admin-only.
    expect((await front.from('operations_popup').select('*')).data).toEqual([]);

    await admin.from('operations_popup').update({ active: false }).eq('id', 1);
    expect((await front.rpc('active_operations_popup')).data).toEqual([]);
  });
});
