-- The academy's own members (hotel partners' staff using the academy app) sign in with Auth like staff do,
-- but they are not staff: an Auth user becomes a member when an `academy_users` row points at it. Signed in,
-- a member reads the videos of public categories and of the private categories they were granted, and
-- likes or unlikes videos for themselves. Admins keep their existing policies; these are added beside them.

alter table public.academy_users
  add column auth_user_id uuid unique references auth.users (id) on delete set null;
comment on column public.academy_users.auth_user_id is
  'The Auth account this member signs in with; null for members who have not been given one yet.';

-- The caller's academy_users row, or null when the caller is not a member (staff, strangers).
create function private.current_academy_member()
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select u.id from public.academy_users u where u.auth_user_id = auth.uid()
$$;

-- Security definer so the answer does not depend on what the member may read of the grants table.
create function private.academy_category_visible_to_member(p_category_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.academy_categories c
    where c.id = p_category_id
      and private.current_academy_member() is not null
      and (
        not c.is_private
        or exists (
          select 1 from public.academy_user_categories g
          where g.category_id = c.id and g.user_id = private.current_academy_member()
        )
      )
  )
$$;

-- A video is visible when at least one of its categories is; a video in no category is visible to no member.
create function private.academy_video_visible_to_member(p_video_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.academy_video_categories vc
    where vc.video_id = p_video_id and private.academy_category_visible_to_member(vc.category_id)
  )
$$;

revoke all on function private.current_academy_member(), private.academy_category_visible_to_member(uuid),
  private.academy_video_visible_to_member(uuid) from public, anon;
grant execute on function private.current_academy_member(), private.academy_category_visible_to_member(uuid),
  private.academy_video_visible_to_member(uuid) to authenticated, service_role;

create policy "Academy members read public categories and the private ones granted to them"
  on public.academy_categories
  for select to authenticated using (private.academy_category_visible_to_member(id));

create policy "Academy members read the videos of categories they can see" on public.academy_videos
  for select to authenticated using (private.academy_video_visible_to_member(id));

create policy "Academy members read the category links of videos they can see" on public.academy_video_categories
  for select to authenticated
  using (private.academy_video_visible_to_member(video_id)
         and private.academy_category_visible_to_member(category_id));

create policy "Academy members read their own profile" on public.academy_users
  for select to authenticated using (auth_user_id = (select auth.uid()));

create policy "Academy members read their own private access" on public.academy_user_categories
  for select to authenticated using (user_id = (select private.current_academy_member()));

create policy "Academy members read their own likes" on public.academy_likes
  for select to authenticated using (user_id = (select private.current_academy_member()));

create policy "Academy members like videos they can see, as themselves" on public.academy_likes
  for insert to authenticated
  with check (user_id = (select private.current_academy_member())
              and private.academy_video_visible_to_member(video_id));

create policy "Academy members remove their own likes" on public.academy_likes
  for delete to authenticated using (user_id = (select private.current_academy_member()));

grant insert, delete on public.academy_likes to authenticated;

-- Admins see like totals change live on the Videos tab.
alter publication supabase_realtime add table public.academy_likes;
