import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { client, signedInUser } from '../helpers/clients.ts';
import { seedAccounts, seedAcademyCategories, seedAcademyMembers, seedAcademyVideos } from '../helpers/seed.ts';

/**
 * The academy members' API, used as the academy app would: supabase-js signed in as a member. RLS alone
 * decides what a member reads (public categories, private ones granted to them, and their videos) and that
 * likes are only ever their own. Seed: Lucía is granted the private Dirección (video Ocupación), Tom is not.
 */

async function signIn(email: string, password: string): Promise<SupabaseClient> {
  const supabase = client('anon');
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return supabase;
}

const sorted = (ids: string[]) => [...ids].sort();

let admin: SupabaseClient;
let service: SupabaseClient;
let lucia: SupabaseClient;
let tom: SupabaseClient;
const createdMembers: string[] = [];
const createdVideos: string[] = [];

/** A new member with an Auth account of their own, so grants and likes can change without touching seed rows. */
async function newMember(name: string) {
  const account = await signedInUser();
  const { data, error } = await service
    .from('academy_users')
    .insert({ name, email: account.email, auth_user_id: account.user.id })
    .select('id')
    .single();
  if (error) throw error;
  createdMembers.push(data.id as string);
  return { id: data.id as string, client: account.client };
}

async function videoIdsSeenBy(supabase: SupabaseClient): Promise<string[]> {
  const { data, error } = await supabase.from('academy_videos').select('id');
  expect(error).toBeNull();
  return sorted((data ?? []).map((row) => row.id as string));
}

async function likeCount(videoId: string): Promise<number> {
  const { data, error } = await admin.from('academy_videos').select('id, like_count').eq('id', videoId).single();
  expect(error).toBeNull();
  return data!.like_count as number;
}

beforeAll(async () => {
  service = client('service_role');
  admin = await signIn(seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  lucia = await signIn(seedAcademyMembers.lucia.email, seedAcademyMembers.lucia.password);
  tom = await signIn(seedAcademyMembers.tom.email, seedAcademyMembers.tom.password);
});

afterAll(async () => {
  if (createdVideos.length) await service.from('academy_videos').delete().in('id', createdVideos);
  if (createdMembers.length) await service.from('academy_users').delete().in('id', createdMembers);
});

describe('what a member reads', () => {
  it('sees the videos of public categories and of the private ones granted to them, nothing else', async () => {
    // Other test files add videos in public categories to the shared stack: what a member should see is
    // worked out here from the rows themselves, read with the service role.
    const { data: links } = await service
      .from('academy_video_categories')
      .select('video_id, academy_categories(is_private)');
    const visibleWith = (granted: string[]) =>
      sorted([
        ...new Set(
          (links ?? [])
            .filter((link) => {
              const category = link.academy_categories as unknown as { is_private: boolean } | null;
              return category && !category.is_private;
            })
            .map((link) => link.video_id as string),
        ),
        ...granted,
      ]).filter((id, index, all) => all.indexOf(id) === index);
    const publicVideos = [seedAcademyVideos.bienvenida, seedAcademyVideos.complaints];
    const tomSees = await videoIdsSeenBy(tom);
    expect(tomSees).toEqual(visibleWith([]));
    expect(tomSees).toEqual(expect.arrayContaining(publicVideos));
    expect(tomSees).not.toContain(seedAcademyVideos.ocupacion);
    expect(await videoIdsSeenBy(lucia)).toEqual(visibleWith([seedAcademyVideos.ocupacion]));

    const direct = await tom.from('academy_videos').select('id').eq('id', seedAcademyVideos.ocupacion);
    expect(direct.data).toEqual([]);
  });

  it('sees public categories and granted private ones, and only the category links of visible videos', async () => {
    const { data: all } = await service.from('academy_categories').select('id, is_private');
    const publicIds = all!.filter((c) => !c.is_private).map((c) => c.id as string);
    const { data: tomCategories } = await tom.from('academy_categories').select('id, name_es, is_private');
    expect(sorted(tomCategories!.map((c) => c.id as string))).toEqual(sorted(publicIds));
    expect(publicIds).toEqual(
      expect.arrayContaining([seedAcademyCategories.atencion, seedAcademyCategories.recepcion]),
    );
    const { data: luciaCategories } = await lucia.from('academy_categories').select('id');
    expect(sorted(luciaCategories!.map((c) => c.id as string))).toEqual(
      sorted([...publicIds, seedAcademyCategories.direccion]),
    );

    const { data: links } = await tom.from('academy_video_categories').select('video_id, category_id');
    expect(links!.some((link) => link.category_id === seedAcademyCategories.direccion)).toBe(false);
    expect(links!.map((link) => link.video_id)).not.toContain(seedAcademyVideos.ocupacion);
  });

  it('a video in a public and a private category shows only the public link to a member without the grant', async () => {
    const { data: videoId, error } = await admin.rpc('save_academy_video', {
      p_youtube_id: 'dQw4w9WgXcQ',
      p_youtube_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      p_language: 'es',
      p_title: 'Mixto público y privado',
      p_category_ids: [seedAcademyCategories.recepcion, seedAcademyCategories.direccion],
    });
    expect(error).toBeNull();
    createdVideos.push(videoId as string);
    const { data } = await tom
      .from('academy_videos')
      .select('id, academy_video_categories(category_id)')
      .eq('id', videoId);
    expect(data).toEqual([
      { id: videoId, academy_video_categories: [{ category_id: seedAcademyCategories.recepcion }] },
    ]);
  });

  it('loses a private category and its videos when the grant is removed, and regains them when granted', async () => {
    const member = await newMember('Ana Prueba');
    expect(await videoIdsSeenBy(member.client)).not.toContain(seedAcademyVideos.ocupacion);

    const grant = await admin.rpc('set_academy_user_categories', {
      p_user_id: member.id,
      p_category_ids: [seedAcademyCategories.direccion],
    });
    expect(grant.error).toBeNull();
    expect(await videoIdsSeenBy(member.client)).toContain(seedAcademyVideos.ocupacion);

    const revoke = await admin.rpc('set_academy_user_categories', { p_user_id: member.id, p_category_ids: [] });
    expect(revoke.error).toBeNull();
    expect(await videoIdsSeenBy(member.client)).not.toContain(seedAcademyVideos.ocupacion);
    const { data: categories } = await member.client.from('academy_categories').select('id');
    expect(categories!.map((c) => c.id)).not.toContain(seedAcademyCategories.direccion);
  });

  it('reads only their own profile, access and likes, never other members', async () => {
    const { data: profiles } = await tom.from('academy_users').select('id, email');
    expect(profiles).toEqual([{ id: seedAcademyMembers.tom.id, email: seedAcademyMembers.tom.email }]);

    const { data: access } = await lucia.from('academy_user_categories').select('user_id, category_id');
    expect(access).toEqual([{ user_id: seedAcademyMembers.lucia.id, category_id: seedAcademyCategories.direccion }]);
    const { data: tomAccess } = await tom.from('academy_user_categories').select('user_id');
    expect(tomAccess).toEqual([]);

    const { data: likes } = await tom.from('academy_likes').select('user_id');
    expect(likes!.length).toBeGreaterThan(0);
    expect(new Set(likes!.map((like) => like.user_id))).toEqual(new Set([seedAcademyMembers.tom.id]));

    const { data: found } = await tom.rpc('search_academy_users', { p_query: 'lucia' });
    expect(found).toEqual([]);
  });

  it.each([
    'staff',
    'files',
    'file_tags',
    'tags',
    'tag_categories',
    'collections',
    'collection_files',
    'operations_popup',
    'trash_jobs',
  ])('reads nothing of the staff table %s', async (table) => {
    const { data, error } = await lucia.from(table).select('*');
    expect(error?.code === '42501' || (error === null && data?.length === 0)).toBe(true);
  });

  it('is not staff: this site would sign them out (no staff role)', async () => {
    const { data, error } = await lucia.rpc('current_staff_role');
    expect(error).toBeNull();
    expect(data).toBeNull();
  });

  it('changes nothing an admin administers', async () => {
    const insert = await tom.from('academy_categories').insert({ name_es: 'Hack', name_en: 'Hack' });
    expect(insert.error?.code).toBe('42501');
    const update = await lucia
      .from('academy_videos')
      .update({ title: 'Cambiado' })
      .eq('id', seedAcademyVideos.bienvenida)
      .select('id');
    expect(update.data ?? []).toEqual([]);
    const grant = await tom.rpc('set_academy_user_categories', {
      p_user_id: seedAcademyMembers.tom.id,
      p_category_ids: [seedAcademyCategories.direccion],
    });
    expect(grant.error?.code).toBe('42501');
    const { data: title } = await admin
      .from('academy_videos')
      .select('title')
      .eq('id', seedAcademyVideos.bienvenida)
      .single();
    expect(title!.title).toBe('Bienvenida a los huéspedes');
  });
});

describe('likes', () => {
  it('a member likes and unlikes a visible video for themselves, and the admin total follows', async () => {
    const member = await newMember('Pablo Likes');
    const before = await likeCount(seedAcademyVideos.complaints);

    const like = await member.client
      .from('academy_likes')
      .insert({ user_id: member.id, video_id: seedAcademyVideos.complaints });
    expect(like.error).toBeNull();
    expect(await likeCount(seedAcademyVideos.complaints)).toBe(before + 1);

    const again = await member.client
      .from('academy_likes')
      .insert({ user_id: member.id, video_id: seedAcademyVideos.complaints });
    expect(again.error?.code).toBe('23505');
    expect(await likeCount(seedAcademyVideos.complaints)).toBe(before + 1);

    const unlike = await member.client
      .from('academy_likes')
      .delete()
      .eq('user_id', member.id)
      .eq('video_id', seedAcademyVideos.complaints)
      .select('video_id');
    expect(unlike.data).toHaveLength(1);
    expect(await likeCount(seedAcademyVideos.complaints)).toBe(before);
  });

  it('cannot like as someone else, nor a video they cannot see', async () => {
    const asLucia = await tom
      .from('academy_likes')
      .insert({ user_id: seedAcademyMembers.lucia.id, video_id: seedAcademyVideos.complaints });
    expect(asLucia.error?.code).toBe('42501');

    const hidden = await tom
      .from('academy_likes')
      .insert({ user_id: seedAcademyMembers.tom.id, video_id: seedAcademyVideos.ocupacion });
    expect(hidden.error?.code).toBe('42501');

    const before = await likeCount(seedAcademyVideos.bienvenida);
    const removeOthers = await tom
      .from('academy_likes')
      .delete()
      .eq('user_id', seedAcademyMembers.lucia.id)
      .eq('video_id', seedAcademyVideos.bienvenida)
      .select('video_id');
    expect(removeOthers.data ?? []).toEqual([]);
    expect(await likeCount(seedAcademyVideos.bienvenida)).toBe(before);
  });

  it('admins see every like in the totals; staff who are not admins see none', async () => {
    const { data } = await admin.from('academy_likes').select('user_id').eq('video_id', seedAcademyVideos.bienvenida);
    expect(await likeCount(seedAcademyVideos.bienvenida)).toBe(data!.length);
    expect(data!.length).toBeGreaterThanOrEqual(2);

    const uploader = await signIn(seedAccounts.UPLOADER.email, seedAccounts.UPLOADER.password);
    const { data: uploaderLikes } = await uploader.from('academy_likes').select('user_id');
    expect(uploaderLikes).toEqual([]);
  });
});

describe('the members filter of the admin screen', () => {
  it('matches every word, accent- and case-insensitively, newest first', async () => {
    const byName = await admin.rpc('search_academy_users', { p_query: 'LUCIA fernandez' });
    expect(byName.error).toBeNull();
    expect(byName.data!.map((u: { id: string }) => u.id)).toEqual([seedAcademyMembers.lucia.id]);

    const byPlace = await admin.rpc('search_academy_users', { p_query: 'blue london' });
    expect(byPlace.data!.map((u: { id: string }) => u.id)).toEqual([seedAcademyMembers.tom.id]);

    const none = await admin.rpc('search_academy_users', { p_query: 'sevilla london' });
    expect(none.data).toEqual([]);

    const wildcard = await admin.rpc('search_academy_users', { p_query: '%' });
    expect(wildcard.data).toEqual([]);

    const all = await admin.rpc('search_academy_users', { p_query: '' });
    const dates = all.data!.map((u: { created_on: string }) => Date.parse(u.created_on));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(all.data!.length).toBeGreaterThanOrEqual(2);
  });
});
