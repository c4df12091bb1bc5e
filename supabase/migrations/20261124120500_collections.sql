-- Collections group files; a public one is shared by link ({domain}/collection/{id}, read through
-- public_sharing.sql, never by table reads). Only admins create, change or fill collections; uploaders see
-- the links of their own files.

create table public.collections (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  is_public boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The list shows each collection's file count. Counting the links of every collection on
  -- each read grows with the library, so the count is kept here by statement-level triggers: a bulk
  -- 'Añadir a colección' of 10,000 files updates each collection once. Clients never write it.
  file_count integer not null default 0 check (file_count >= 0),
  constraint collections_name_printable check (name !~ '[[:cntrl:]]')
);

create table public.collection_files (
  collection_id uuid not null references public.collections (id) on delete cascade,
  file_id uuid not null references public.files (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (collection_id, file_id)
);
create index collection_files_file_id_idx on public.collection_files (file_id);

alter table public.collections enable row level security;
alter table public.collection_files enable row level security;

create policy "Library staff read collections" on public.collections
  for select to authenticated using ((select private.is_library_staff()));
create policy "Admins create collections" on public.collections
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins update collections" on public.collections
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "Admins delete collections" on public.collections
  for delete to authenticated using ((select private.is_admin()));

create policy "Admins read every collection link and uploaders those of their files" on public.collection_files
  for select to authenticated
  using (
    (select private.is_admin())
    or ((select private.is_uploader())
        and exists (select 1 from public.files f where f.id = collection_files.file_id and f.uploader_id = (select auth.uid())))
  );
create policy "Admins add files to collections" on public.collection_files
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins remove files from collections" on public.collection_files
  for delete to authenticated using ((select private.is_admin()));

revoke all on public.collections, public.collection_files from anon;
-- Clients may only insert and update the name and the public flag (file_count and the dates are the
-- database's).
grant select, delete on public.collections to authenticated;
revoke insert, update on public.collections from authenticated;
grant insert (id, name, is_public), update (name, is_public) on public.collections to authenticated;
grant select, insert, delete on public.collection_files to authenticated;
grant all on public.collections, public.collection_files to service_role;

create trigger collections_touch_updated_at
  before update on public.collections
  for each row execute function private.touch_updated_at();

create function private.count_added_collection_files()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.collections c
     set file_count = c.file_count + added.n
    from (select collection_id, count(*)::integer as n from new_links group by collection_id) as added
   where c.id = added.collection_id;
  return null;
end
$$;

create function private.count_removed_collection_files()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.collections c
     set file_count = greatest(c.file_count - removed.n, 0)
    from (select collection_id, count(*)::integer as n from old_links group by collection_id) as removed
   where c.id = removed.collection_id;
  return null;
end
$$;

revoke all on function private.count_added_collection_files(), private.count_removed_collection_files() from public;

create trigger collection_files_count_added
  after insert on public.collection_files
  referencing new table as new_links
  for each statement execute function private.count_added_collection_files();

create trigger collection_files_count_removed
  after delete on public.collection_files
  referencing old table as old_links
  for each statement execute function private.count_removed_collection_files();
