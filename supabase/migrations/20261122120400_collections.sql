-- Collections group files; a public one is shared by link ({domain}/collection/{id}) and read by anon,
-- together with its published files. Only admins create, change or fill collections.

create table public.collections (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  is_public boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
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

create function private.is_public_collection(p_collection_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.collections c where c.id = p_collection_id and c.is_public)
$$;
revoke all on function private.is_public_collection(uuid) from public;
grant execute on function private.is_public_collection(uuid) to anon, authenticated, service_role;

create policy "Library staff read collections" on public.collections
  for select to authenticated using ((select private.is_library_staff()));
create policy "Anyone reads public collections" on public.collections
  for select to anon using (is_public);
create policy "Admins create collections" on public.collections
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins update collections" on public.collections
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "Admins delete collections" on public.collections
  for delete to authenticated using ((select private.is_admin()));

create policy "Admins read every collection link and uploaders those of their files" on public.collection_files
  for select to authenticated
  using ((select private.is_admin()) or ((select private.is_uploader()) and private.owns_file(file_id)));
create policy "Anyone reads the published files of public collections" on public.collection_files
  for select to anon
  using (private.is_public_collection(collection_id)
         and exists (select 1 from public.files f where f.id = file_id and f.published));
create policy "Admins add files to collections" on public.collection_files
  for insert to authenticated with check ((select private.is_admin()));
create policy "Admins remove files from collections" on public.collection_files
  for delete to authenticated using ((select private.is_admin()));

revoke all on public.collections, public.collection_files from anon;
grant select on public.collections, public.collection_files to anon;
grant select, insert, update, delete on public.collections to authenticated;
grant select, insert, delete on public.collection_files to authenticated;
grant all on public.collections, public.collection_files to service_role;

create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

create trigger collections_touch_updated_at
  before update on public.collections
  for each row execute function private.touch_updated_at();
