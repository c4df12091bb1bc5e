-- Tag categories and tags (bilingual). Staff who use the library read them; only admins change them.
-- Deleting a category deletes its tags, and deleting a tag deletes its file links (foreign keys cascade,
-- so one DELETE statement is the whole atomic operation). Names are single-line labels: a
-- control character (a newline pasted from a spreadsheet, an escape) would break cards, menus and feeds.

create table public.tag_categories (
  id uuid primary key default gen_random_uuid(),
  name_es text not null check (char_length(btrim(name_es)) between 1 and 200),
  name_en text not null check (char_length(btrim(name_en)) between 1 and 200),
  hide_b2c boolean not null default false,
  hide_b2b boolean not null default false,
  created_at timestamptz not null default now(),
  constraint tag_categories_names_printable check (name_es !~ '[[:cntrl:]]' and name_en !~ '[[:cntrl:]]')
);

create table public.tags (
  id uuid primary key default gen_random_uuid(),
  category_id uuid not null references public.tag_categories (id) on delete cascade,
  name_es text not null check (char_length(btrim(name_es)) between 1 and 200),
  name_en text not null check (char_length(btrim(name_en)) between 1 and 200),
  created_at timestamptz not null default now(),
  constraint tags_names_printable check (name_es !~ '[[:cntrl:]]' and name_en !~ '[[:cntrl:]]')
);
create index tags_category_id_idx on public.tags (category_id);

alter table public.tag_categories enable row level security;
alter table public.tags enable row level security;

create policy "Library staff read tag categories" on public.tag_categories
  for select to authenticated using ((select private.is_library_staff()));
create policy "Admins create tag categories" on public.tag_categories
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins update tag categories" on public.tag_categories
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "Admins delete tag categories" on public.tag_categories
  for delete to authenticated using ((select private.is_admin()));

create policy "Library staff read tags" on public.tags
  for select to authenticated using ((select private.is_library_staff()));
create policy "Admins create tags" on public.tags
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins update tags" on public.tags
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "Admins delete tags" on public.tags
  for delete to authenticated using ((select private.is_admin()));

revoke all on public.tag_categories, public.tags from anon;
grant select, insert, update, delete on public.tag_categories, public.tags to authenticated;
grant all on public.tag_categories, public.tags to service_role;
