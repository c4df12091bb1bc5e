-- The video academy: curated video links in categories, some categories private. Admins run it all.
-- Academy members (hotel partners' staff using the academy app, not staff of this site) sign in with Auth
-- like staff do; an Auth user becomes a member when an `academy_users` row points at it. Signed in, a member
-- reads the videos of public categories and of the private categories they were granted, and likes or
-- unlikes videos for themselves.

create table public.academy_categories (
  id uuid primary key default gen_random_uuid(),
  name_es text not null check (char_length(btrim(name_es)) between 1 and 200),
  name_en text not null check (char_length(btrim(name_en)) between 1 and 200),
  is_private boolean not null default false,
  created_at timestamptz not null default now(),
  constraint academy_categories_names_printable check (name_es !~ '[[:cntrl:]]' and name_en !~ '[[:cntrl:]]')
);

create table public.academy_videos (
  id uuid primary key default gen_random_uuid(),
  youtube_id text not null check (youtube_id ~ '^[A-Za-z0-9_-]{6,20}$'),
  youtube_url text not null check (char_length(youtube_url) between 1 and 2082),
  language text not null default 'es' check (language in ('es', 'en')),
  title text not null check (char_length(btrim(title)) between 1 and 300),
  thumbnail_url text check (char_length(thumbnail_url) <= 2082),
  created_on timestamptz not null default now()
);
create index academy_videos_created_on_idx on public.academy_videos (created_on desc);

create table public.academy_video_categories (
  video_id uuid not null references public.academy_videos (id) on delete cascade,
  category_id uuid not null references public.academy_categories (id) on delete cascade,
  primary key (video_id, category_id)
);
create index academy_video_categories_category_id_idx on public.academy_video_categories (category_id);

create table public.academy_users (
  id uuid primary key default gen_random_uuid(),
  name text not null default '' check (char_length(name) <= 200),
  email text not null check (char_length(email) between 3 and 320),
  company text not null default '' check (char_length(company) <= 200),
  city text not null default '' check (char_length(city) <= 200),
  country text not null default '' check (char_length(country) <= 200),
  created_on timestamptz not null default now(),
  auth_user_id uuid unique references auth.users (id) on delete set null,
  -- The members filter ('Filtrar (nombre, correo, etc)') on the server for 50,000 members: the unaccented
  -- text with a trigram index, so `like '%word%'` uses the index (search_academy_users below).
  search_document text not null generated always as (
    private.normalize_search_text(name || ' ' || email || ' ' || company || ' ' || city || ' ' || country)
  ) stored
);
comment on column public.academy_users.auth_user_id is
  'The Auth account this member signs in with; null for members who have not been given one yet.';
create index academy_users_created_on_idx on public.academy_users (created_on desc);
create index academy_users_search_document_trgm_idx
  on public.academy_users using gin (search_document extensions.gin_trgm_ops);

create table public.academy_user_categories (
  user_id uuid not null references public.academy_users (id) on delete cascade,
  category_id uuid not null references public.academy_categories (id) on delete cascade,
  primary key (user_id, category_id)
);
create index academy_user_categories_category_id_idx on public.academy_user_categories (category_id);

create table public.academy_likes (
  user_id uuid not null references public.academy_users (id) on delete cascade,
  video_id uuid not null references public.academy_videos (id) on delete cascade,
  liked_at timestamptz not null default now(),
  primary key (user_id, video_id)
);
create index academy_likes_video_id_idx on public.academy_likes (video_id);

alter table public.academy_categories enable row level security;
alter table public.academy_videos enable row level security;
alter table public.academy_video_categories enable row level security;
alter table public.academy_users enable row level security;
alter table public.academy_user_categories enable row level security;
alter table public.academy_likes enable row level security;

-- What a member may see ------------------------------------------------------------------------------------

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

-- Policies: admins everything, members what they may see ---------------------------------------------------

create policy "Admins read academy categories" on public.academy_categories
  for select to authenticated using ((select private.is_admin()));
create policy "Admins create academy categories" on public.academy_categories
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins update academy categories" on public.academy_categories
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "Admins delete academy categories" on public.academy_categories
  for delete to authenticated using ((select private.is_admin()));
create policy "Academy members read public categories and the private ones granted to them"
  on public.academy_categories
  for select to authenticated using (private.academy_category_visible_to_member(id));

create policy "Admins read academy videos" on public.academy_videos
  for select to authenticated using ((select private.is_admin()));
create policy "Admins create academy videos" on public.academy_videos
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins update academy videos" on public.academy_videos
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "Admins delete academy videos" on public.academy_videos
  for delete to authenticated using ((select private.is_admin()));
create policy "Academy members read the videos of categories they can see" on public.academy_videos
  for select to authenticated using (private.academy_video_visible_to_member(id));

create policy "Admins read video categories" on public.academy_video_categories
  for select to authenticated using ((select private.is_admin()));
create policy "Admins add video categories" on public.academy_video_categories
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins remove video categories" on public.academy_video_categories
  for delete to authenticated using ((select private.is_admin()));
create policy "Academy members read the category links of videos they can see" on public.academy_video_categories
  for select to authenticated
  using (private.academy_video_visible_to_member(video_id)
         and private.academy_category_visible_to_member(category_id));

create policy "Admins read academy users" on public.academy_users
  for select to authenticated using ((select private.is_admin()));
create policy "Admins create academy users" on public.academy_users
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins update academy users" on public.academy_users
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "Admins delete academy users" on public.academy_users
  for delete to authenticated using ((select private.is_admin()));
create policy "Academy members read their own profile" on public.academy_users
  for select to authenticated using (auth_user_id = (select auth.uid()));

create policy "Admins read academy user access" on public.academy_user_categories
  for select to authenticated using ((select private.is_admin()));
create policy "Admins grant academy user access" on public.academy_user_categories
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins revoke academy user access" on public.academy_user_categories
  for delete to authenticated using ((select private.is_admin()));
create policy "Academy members read their own private access" on public.academy_user_categories
  for select to authenticated using (user_id = (select private.current_academy_member()));

create policy "Admins read academy likes" on public.academy_likes
  for select to authenticated using ((select private.is_admin()));
create policy "Academy members read their own likes" on public.academy_likes
  for select to authenticated using (user_id = (select private.current_academy_member()));
create policy "Academy members like videos they can see, as themselves" on public.academy_likes
  for insert to authenticated
  with check (user_id = (select private.current_academy_member())
              and private.academy_video_visible_to_member(video_id));
create policy "Academy members remove their own likes" on public.academy_likes
  for delete to authenticated using (user_id = (select private.current_academy_member()));

revoke all on public.academy_categories, public.academy_videos, public.academy_video_categories,
  public.academy_users, public.academy_user_categories, public.academy_likes from anon;
grant select, insert, update, delete on public.academy_categories, public.academy_videos, public.academy_users
  to authenticated;
grant select, insert, delete on public.academy_video_categories, public.academy_user_categories,
  public.academy_likes to authenticated;
grant all on public.academy_categories, public.academy_videos, public.academy_video_categories,
  public.academy_users, public.academy_user_categories, public.academy_likes to service_role;

-- RPCs ------------------------------------------------------------------------------------------------------

-- Like totals per video, as a PostgREST computed field: `select=*,like_count`. It runs with
-- the caller's rights, so an admin counts every like and a member only ever counts their own.
create function public.like_count(p_video public.academy_videos)
returns bigint
language sql
stable
set search_path = ''
as $$
  select count(*) from public.academy_likes l where l.video_id = p_video.id
$$;
revoke all on function public.like_count(public.academy_videos) from public, anon;
grant execute on function public.like_count(public.academy_videos) to authenticated, service_role;

-- The members filter: every typed word must appear, accent- and case-insensitively, in the name, e-mail,
-- company, city or country. Security invoker: RLS on academy_users decides who gets rows (admins all, a
-- member only themselves). One `like` per word, written into the statement so the planner can use the
-- trigram index for each; the page is cut here because PostgREST would otherwise materialise every member.
create function public.search_academy_users(p_query text default '', p_limit integer default 100,
                                            p_offset integer default 0)
returns setof public.academy_users
language plpgsql
stable
set search_path = ''
as $$
declare
  v_patterns text[];
  v_sql text := 'select u.* from public.academy_users u where true';
begin
  select coalesce(array_agg(private.contains_pattern(word)), '{}')
    into v_patterns
  from regexp_split_to_table(private.normalize_search_text(btrim(coalesce(p_query, ''))), '\s+') as word
  where word <> '';
  for i in 1 .. coalesce(array_length(v_patterns, 1), 0) loop
    v_sql := v_sql || format(' and u.search_document like $1[%s]', i);
  end loop;
  return query execute v_sql || ' order by u.created_on desc, u.id limit $2 offset $3'
    using v_patterns, least(greatest(coalesce(p_limit, 100), 1), 500), greatest(coalesce(p_offset, 0), 0);
end
$$;
revoke all on function public.search_academy_users(text, integer, integer) from public, anon;
grant execute on function public.search_academy_users(text, integer, integer) to authenticated, service_role;

-- Saving a video with its categories in one transaction, so a failure half-way leaves no video without its
-- categories. Security invoker: the admin-only policies still decide; require_admin() refuses early.
create function public.save_academy_video(
  p_youtube_id text,
  p_youtube_url text,
  p_language text,
  p_title text,
  p_category_ids uuid[],
  p_thumbnail_url text default null,
  -- null creates; an id updates that video's title, language and categories (its link stays).
  p_id uuid default null
)
returns uuid
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid;
begin
  perform private.require_admin();
  if p_id is null then
    insert into public.academy_videos (youtube_id, youtube_url, language, title, thumbnail_url)
    values (p_youtube_id, p_youtube_url, p_language, btrim(p_title), p_thumbnail_url)
    returning id into v_id;
  else
    update public.academy_videos
       set language = p_language, title = btrim(p_title)
     where id = p_id
    returning id into v_id;
    if v_id is null then
      raise exception 'academy video % not found', p_id using errcode = 'P0002';
    end if;
    delete from public.academy_video_categories
     where video_id = v_id and category_id <> all (coalesce(p_category_ids, '{}'));
  end if;
  insert into public.academy_video_categories (video_id, category_id)
  select v_id, c from unnest(coalesce(p_category_ids, '{}')) as c
  on conflict do nothing;
  return v_id;
end
$$;

create function public.set_academy_video_categories(p_video_id uuid, p_category_ids uuid[])
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform private.require_admin();
  delete from public.academy_video_categories vc
   where vc.video_id = p_video_id and not (vc.category_id = any(coalesce(p_category_ids, '{}')));
  insert into public.academy_video_categories (video_id, category_id)
  select p_video_id, c.id from unnest(coalesce(p_category_ids, '{}')) as c(id) on conflict do nothing;
end
$$;

-- Grants a member exactly these private categories.
create function public.set_academy_user_categories(p_user_id uuid, p_category_ids uuid[])
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform private.require_admin();
  if exists (select 1 from public.academy_categories c
              where c.id = any(coalesce(p_category_ids, '{}')) and not c.is_private) then
    raise exception 'Only private categories need to be granted' using errcode = '22023';
  end if;
  delete from public.academy_user_categories uc
   where uc.user_id = p_user_id and not (uc.category_id = any(coalesce(p_category_ids, '{}')));
  insert into public.academy_user_categories (user_id, category_id)
  select p_user_id, c.id from unnest(coalesce(p_category_ids, '{}')) as c(id) on conflict do nothing;
end
$$;

revoke all on function public.save_academy_video(text, text, text, text, uuid[], text, uuid),
  public.set_academy_video_categories(uuid, uuid[]), public.set_academy_user_categories(uuid, uuid[])
  from public, anon;
grant execute on function public.save_academy_video(text, text, text, text, uuid[], text, uuid),
  public.set_academy_video_categories(uuid, uuid[]), public.set_academy_user_categories(uuid, uuid[])
  to authenticated, service_role;
