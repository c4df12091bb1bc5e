-- Files of the library and their tags.
-- A file row is written when its upload has finished (spec section 3); post-processing (edge function,
-- service role) fills mime type, dimensions and checksum and clears `processing`.
-- Uploaders see and edit only the text and tags of files they uploaded; publication, B2B, panorama,
-- operations and collection links are admin-only, enforced by policies plus a trigger for the columns.

create table public.files (
  id uuid primary key default gen_random_uuid(),
  file_name text not null check (char_length(file_name) between 1 and 300),
  object_path text not null check (char_length(object_path) between 1 and 400),
  original_file_name text not null check (octet_length(original_file_name) between 1 and 255),
  name_es text not null check (char_length(btrim(name_es)) between 1 and 500),
  name_en text not null check (char_length(btrim(name_en)) between 1 and 500),
  description_es text not null default '' check (char_length(description_es) <= 10000),
  description_en text not null default '' check (char_length(description_en) <= 10000),
  size bigint not null check (size between 0 and 1000000000),
  uploaded_on timestamptz not null default now(),
  uploader_id uuid references auth.users (id) on delete set null,
  uploader_email text check (char_length(uploader_email) <= 320),
  extension text not null default '' check (extension ~ '^[a-z0-9]{0,16}$'),
  is_image boolean generated always as (extension in ('jpg', 'jpeg', 'png')) stored,
  processing boolean not null default true,
  processing_error text check (char_length(processing_error) <= 2000),
  processed_at timestamptz,
  published boolean not null default false,
  panorama boolean not null default false,
  b2b boolean not null default true,
  operations boolean not null default false,
  mime_type text check (char_length(mime_type) <= 255),
  width integer check (width > 0),
  height integer check (height > 0),
  checksum text check (checksum ~ '^[0-9a-f]{64}$'),
  -- Unaccented, lower-case text that search matches against: id, names, descriptions, original file name
  -- and the names of the file's tags. Maintained by triggers, never written by clients.
  search_document text not null default '',
  updated_at timestamptz not null default now()
);

create index files_uploaded_on_idx on public.files (uploaded_on desc, id);
create index files_size_idx on public.files (size, id);
create index files_uploader_id_idx on public.files (uploader_id);

create table public.file_tags (
  file_id uuid not null references public.files (id) on delete cascade,
  tag_id uuid not null references public.tags (id) on delete cascade,
  primary key (file_id, tag_id)
);
create index file_tags_tag_id_idx on public.file_tags (tag_id);

alter table public.files enable row level security;
alter table public.file_tags enable row level security;

-- Ownership without RLS, for policies that must know whether a file id is taken by someone else.
create function private.file_uploader(p_file_id uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select f.uploader_id from public.files f where f.id = p_file_id
$$;

create function private.file_exists(p_file_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.files f where f.id = p_file_id)
$$;

create function private.owns_file(p_file_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.files f where f.id = p_file_id and f.uploader_id = auth.uid())
$$;

revoke all on function private.file_uploader(uuid), private.file_exists(uuid), private.owns_file(uuid) from public;
grant execute on function private.file_uploader(uuid), private.file_exists(uuid), private.owns_file(uuid)
  to anon, authenticated, service_role;

create policy "Admins read every file and uploaders their own" on public.files
  for select to authenticated
  using ((select private.is_admin()) or ((select private.is_uploader()) and uploader_id = (select auth.uid())));
create policy "Anyone reads published files" on public.files
  for select to anon
  using (published);
create policy "Admins and uploaders add files as themselves" on public.files
  for insert to authenticated
  with check ((select private.is_admin()) or ((select private.is_uploader()) and uploader_id = (select auth.uid())));
create policy "Admins edit every file and uploaders their own" on public.files
  for update to authenticated
  using ((select private.is_admin()) or ((select private.is_uploader()) and uploader_id = (select auth.uid())))
  with check ((select private.is_admin()) or ((select private.is_uploader()) and uploader_id = (select auth.uid())));
create policy "Admins delete files" on public.files
  for delete to authenticated
  using ((select private.is_admin()));

create policy "Admins read every file tag and uploaders those of their files" on public.file_tags
  for select to authenticated
  using ((select private.is_admin()) or ((select private.is_uploader()) and private.owns_file(file_id)));
create policy "Admins tag every file and uploaders their own" on public.file_tags
  for insert to authenticated
  with check ((select private.is_admin()) or ((select private.is_uploader()) and private.owns_file(file_id)));
create policy "Admins untag every file and uploaders their own" on public.file_tags
  for delete to authenticated
  using ((select private.is_admin()) or ((select private.is_uploader()) and private.owns_file(file_id)));

revoke all on public.files, public.file_tags from anon;
grant select on public.files to anon;
grant select, insert, update, delete on public.files to authenticated;
grant select, insert, delete on public.file_tags to authenticated;
grant all on public.files, public.file_tags to service_role;

-- What a non-admin signed-in user may write (spec sections 3 and 6): new files start unpublished and
-- processing, as themselves; afterwards only the bilingual texts, and the columns a replacement upload
-- rewrites (size, names, object, processing back to true, uploader = themselves).
create function private.enforce_file_write_rules()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  if auth.role() is distinct from 'authenticated' or private.is_admin() then
    return new;
  end if;

  if tg_op = 'INSERT' then
    if new.published or not new.processing or new.uploader_id is distinct from auth.uid()
       or new.panorama or new.operations or not new.b2b
       or new.mime_type is not null or new.width is not null or new.height is not null
       or new.checksum is not null or new.processing_error is not null then
      raise exception 'Only admins may set these file options'
        using errcode = '42501', hint = 'NOT_ADMIN';
    end if;
    return new;
  end if;

  if new.published is distinct from old.published or new.panorama is distinct from old.panorama
     or new.b2b is distinct from old.b2b or new.operations is distinct from old.operations
     or new.uploaded_on is distinct from old.uploaded_on or new.id is distinct from old.id
     or new.mime_type is distinct from old.mime_type or new.width is distinct from old.width
     or new.height is distinct from old.height or new.checksum is distinct from old.checksum
     or new.processed_at is distinct from old.processed_at
     or new.processing_error is distinct from old.processing_error
     or (new.processing is distinct from old.processing and not new.processing)
     or new.uploader_id is distinct from auth.uid() then
    raise exception 'Only admins may change these file options'
      using errcode = '42501', hint = 'NOT_ADMIN';
  end if;
  return new;
end
$$;

create trigger files_enforce_write_rules
  before insert or update on public.files
  for each row execute function private.enforce_file_write_rules();
