-- The video academy: curated video links in categories, some categories private; academy users (people
-- of the academy app, not staff of this site) get access to private categories and like videos.
-- Everything here is administered by admins only.

create table public.academy_categories (
  id uuid primary key default gen_random_uuid(),
  name_es text not null check (char_length(btrim(name_es)) between 1 and 200),
  name_en text not null check (char_length(btrim(name_en)) between 1 and 200),
  is_private boolean not null default false,
  created_at timestamptz not null default now()
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
  created_on timestamptz not null default now()
);
create index academy_users_created_on_idx on public.academy_users (created_on desc);

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

create policy "Admins read academy categories" on public.academy_categories
  for select to authenticated using ((select private.is_admin()));
create policy "Admins create academy categories" on public.academy_categories
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins update academy categories" on public.academy_categories
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "Admins delete academy categories" on public.academy_categories
  for delete to authenticated using ((select private.is_admin()));

create policy "Admins read academy videos" on public.academy_videos
  for select to authenticated using ((select private.is_admin()));
create policy "Admins create academy videos" on public.academy_videos
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins update academy videos" on public.academy_videos
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "Admins delete academy videos" on public.academy_videos
  for delete to authenticated using ((select private.is_admin()));

create policy "Admins read video categories" on public.academy_video_categories
  for select to authenticated using ((select private.is_admin()));
create policy "Admins add video categories" on public.academy_video_categories
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins remove video categories" on public.academy_video_categories
  for delete to authenticated using ((select private.is_admin()));

create policy "Admins read academy users" on public.academy_users
  for select to authenticated using ((select private.is_admin()));
create policy "Admins create academy users" on public.academy_users
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins update academy users" on public.academy_users
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "Admins delete academy users" on public.academy_users
  for delete to authenticated using ((select private.is_admin()));

create policy "Admins read academy user access" on public.academy_user_categories
  for select to authenticated using ((select private.is_admin()));
create policy "Admins grant academy user access" on public.academy_user_categories
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins revoke academy user access" on public.academy_user_categories
  for delete to authenticated using ((select private.is_admin()));

create policy "Admins read academy likes" on public.academy_likes
  for select to authenticated using ((select private.is_admin()));

revoke all on public.academy_categories, public.academy_videos, public.academy_video_categories,
  public.academy_users, public.academy_user_categories, public.academy_likes from anon;
grant select, insert, update, delete on public.academy_categories, public.academy_videos, public.academy_users
  to authenticated;
grant select, insert, delete on public.academy_video_categories, public.academy_user_categories to authenticated;
grant select on public.academy_likes to authenticated;
grant all on public.academy_categories, public.academy_videos, public.academy_video_categories,
  public.academy_users, public.academy_user_categories, public.academy_likes to service_role;
