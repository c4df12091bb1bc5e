-- Files of the library and their tags.
-- A file row is written when its upload has finished; post-processing (the server job
-- `process_upload`, server_jobs.sql) fills mime type, dimensions, checksum and a PDF's first-page picture
-- (`preview_path`) and clears `processing`.
-- Uploaders see and edit only the text and tags of files they uploaded; publication, B2B, panorama,
-- operations and collection links are admin-only, enforced by policies plus the write-rules trigger.
-- Who uploaded a file, when, and how big it is are the server's facts (set_server_owned_file_columns).
--
-- Elsewhere: search and paging (file_search.sql), history (file_history.sql), the Papelera and a file id
-- that stays taken while trashed (trash.sql), bulk actions and the detail form's save
-- (bulk_file_actions.sql), the media objects (storage.sql), the jobs a change queues (server_jobs.sql).

create table public.files (
  id uuid primary key default gen_random_uuid(),
  file_name text not null check (char_length(file_name) between 1 and 300),
  object_path text not null check (char_length(object_path) between 1 and 400),
  original_file_name text not null check (octet_length(original_file_name) between 1 and 255),
  name_es text not null check (char_length(btrim(name_es)) between 1 and 500),
  name_en text not null check (char_length(btrim(name_en)) between 1 and 500),
  description_es text not null default '' check (char_length(description_es) <= 10000),
  description_en text not null default '' check (char_length(description_en) <= 10000),
  -- The stored object's size, decided by set_server_owned_file_columns, so a client need not send it.
  size bigint not null default 0 check (size between 0 and 1000000000),
  uploaded_on timestamptz not null default now(),
  uploader_id uuid default auth.uid() references auth.users (id) on delete set null,
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
  -- A PDF's first page as a JPEG beside its object in the media bucket (`{object_path}.preview.jpg`), written
  -- by post-processing only; null for other files and for PDFs that could not be rendered (the extension tile).
  preview_path text check (char_length(preview_path) between 1 and 420),
  -- Unaccented, lower-case text that search matches against: id, names, descriptions, original file name,
  -- author and credit (the tags' names are matched through the search index). Kept by a trigger
  -- (file_search.sql), never written by clients.
  search_document text not null default '',
  updated_at timestamptz not null default now(),
  duplicate_of uuid references public.files (id) on delete set null,
  -- Names are single-line labels shown in cards, menus, ZIP entries and link previews: a control character
  -- in one breaks layouts and downloads and can spoof what a name looks like. Descriptions keep line breaks.
  constraint files_names_printable check (
    name_es !~ '[[:cntrl:]]' and name_en !~ '[[:cntrl:]]' and original_file_name !~ '[[:cntrl:]]'
  )
);
comment on column public.files.duplicate_of is
  'The earliest other file with the same sha256 (set by the database from checksum), or null.';

create index files_uploader_id_idx on public.files (uploader_id);
create index files_checksum_idx on public.files (checksum) where checksum is not null;
create index files_duplicate_of_idx on public.files (duplicate_of) where duplicate_of is not null;

create table public.file_tags (
  file_id uuid not null references public.files (id) on delete cascade,
  tag_id uuid not null references public.tags (id) on delete cascade,
  primary key (file_id, tag_id)
);
-- By tag, with the file id in the index: count_files and the tag counts read a tag's files from here alone.
create index file_tags_tag_id_file_id_idx on public.file_tags (tag_id, file_id);

alter table public.files enable row level security;
alter table public.file_tags enable row level security;

-- Ownership without RLS, for policies that must know whether a file id is taken by someone else (PL/pgSQL for
-- the reason the role helpers are: staff_and_access.sql).
create function private.file_uploader(p_file_id uuid)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select f.uploader_id from public.files f where f.id = p_file_id);
end
$$;

create function private.owns_file(p_file_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (select 1 from public.files f where f.id = p_file_id and f.uploader_id = auth.uid());
end
$$;

revoke all on function private.file_uploader(uuid), private.owns_file(uuid) from public;
grant execute on function private.file_uploader(uuid), private.owns_file(uuid) to anon, authenticated, service_role;

-- Anonymous visitors read nothing here: shared links go through public_sharing.sql.
create policy "Admins read every file and uploaders their own" on public.files
  for select to authenticated
  using ((select private.is_admin()) or ((select private.is_uploader()) and uploader_id = (select auth.uid())));
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
  using (
    (select private.is_admin())
    or ((select private.is_uploader())
        and exists (select 1 from public.files f where f.id = file_tags.file_id and f.uploader_id = (select auth.uid())))
  );
create policy "Admins tag every file and uploaders their own" on public.file_tags
  for insert to authenticated
  with check ((select private.is_admin()) or ((select private.is_uploader()) and private.owns_file(file_id)));
create policy "Admins untag every file and uploaders their own" on public.file_tags
  for delete to authenticated
  using ((select private.is_admin()) or ((select private.is_uploader()) and private.owns_file(file_id)));

revoke all on public.files, public.file_tags from anon;
grant select, insert, update, delete on public.files to authenticated;
grant select, insert, delete on public.file_tags to authenticated;
grant all on public.files, public.file_tags to service_role;

-- What a non-admin may write --------------------------------------------------------------------------------
-- New files start unpublished and processing, as their uploader; afterwards a non-admin changes only the
-- bilingual texts and the columns a replacement upload rewrites (size, names, object, processing back to
-- true, uploader = themselves). Checked on the row as the caller sent it, before the server-owned columns
-- below are filled in, so a forbidden write gets a clear error instead of being silently corrected.
create function private.enforce_file_write_rules(p_op text, p_new public.files, p_old public.files)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if auth.role() is distinct from 'authenticated' or private.is_admin() then
    return;
  end if;

  if p_op = 'INSERT' then
    if p_new.published or not p_new.processing or p_new.uploader_id is distinct from auth.uid()
       or p_new.panorama or p_new.operations or not p_new.b2b
       or p_new.mime_type is not null or p_new.width is not null or p_new.height is not null
       or p_new.checksum is not null or p_new.processing_error is not null or p_new.preview_path is not null then
      raise exception 'Only admins may set these file options'
        using errcode = '42501', hint = 'NOT_ADMIN';
    end if;
    return;
  end if;

  if p_new.published is distinct from p_old.published or p_new.panorama is distinct from p_old.panorama
     or p_new.b2b is distinct from p_old.b2b or p_new.operations is distinct from p_old.operations
     or p_new.uploaded_on is distinct from p_old.uploaded_on or p_new.id is distinct from p_old.id
     or p_new.mime_type is distinct from p_old.mime_type or p_new.width is distinct from p_old.width
     or p_new.height is distinct from p_old.height or p_new.checksum is distinct from p_old.checksum
     or p_new.preview_path is distinct from p_old.preview_path
     or p_new.processed_at is distinct from p_old.processed_at
     or p_new.processing_error is distinct from p_old.processing_error
     or (p_new.processing is distinct from p_old.processing and not p_new.processing)
     or p_new.uploader_id is distinct from auth.uid() then
    raise exception 'Only admins may change these file options'
      using errcode = '42501', hint = 'NOT_ADMIN';
  end if;
end
$$;
revoke all on function private.enforce_file_write_rules(text, public.files, public.files) from public;

-- Columns the server owns -----------------------------------------------------------------------------------
-- For any write made with a user's token (admins included):
--   * insert: uploader_id/uploader_email are the caller (from the token's user, e-mail from auth.users),
--     uploaded_on is now(), size and mime type come from the stored object's metadata in storage.objects;
--   * update: uploaded_on never changes; uploader and size change only with the object (a replacement,
--     'Subir nuevo archivo'), and then come from the caller and the new object, the file name from its
--     path, and the file goes back to `processing` with its old checksum, dimensions and preview cleared;
--   * the preview (preview_path) points at an object only post-processing writes: no user, admins
--     included, sets it (an insert starts without one, an update keeps the one it had);
--   * the capture date (captured_at, file_rights_and_metadata.sql) is what post-processing read from the file's
--     own EXIF/XMP: an insert starts without one, an update keeps it, and a replacement clears it until the new
--     object's processing reads it again;
--   * a restore from the Papelera (restore_files, trash.sql) writes the row back as it was.
-- Writes without a user (service role, SQL, seeds, migrations) are trusted as they are.
create function private.set_server_owned_file_columns(p_op text, p_new public.files, p_old public.files)
returns public.files
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  object_size bigint;
  object_mime text;
  object_found boolean;
begin
  if caller is null then
    return p_new;
  end if;
  -- A restore writes back the row as it was (uploader, date, size, checksum); see restore_files.
  if p_op = 'INSERT' and exists (select 1 from public.trashed_files t where t.file_id = p_new.id and t.restoring) then
    return p_new;
  end if;

  if p_op = 'UPDATE' then
    p_new.uploaded_on := p_old.uploaded_on;
    p_new.preview_path := p_old.preview_path;
    if p_new.object_path is not distinct from p_old.object_path then
      p_new.size := p_old.size;
      p_new.uploader_id := p_old.uploader_id;
      p_new.uploader_email := p_old.uploader_email;
      p_new.captured_at := p_old.captured_at;
      return p_new;
    end if;
    -- A replacement: the new object must be one of this file's, already stored.
    if private.media_object_file_id(p_new.object_path) is distinct from p_new.id then
      raise exception 'The new object must be stored under the file''s own folder'
        using errcode = '22023', hint = 'INVALID_OBJECT_PATH';
    end if;
  end if;

  select true, (o.metadata ->> 'size')::bigint, nullif(split_part(o.metadata ->> 'mimetype', ';', 1), '')
    into object_found, object_size, object_mime
    from storage.objects o
   where o.bucket_id = 'media' and o.name = p_new.object_path;
  if p_op = 'UPDATE' and object_found is null then
    raise exception 'The new object has not been stored yet'
      using errcode = '22023', hint = 'OBJECT_NOT_FOUND';
  end if;

  p_new.uploader_id := caller;
  p_new.uploader_email := (select u.email from auth.users u where u.id = caller);
  -- Until the object has landed the size is unknown; post-processing measures the stored bytes anyway.
  p_new.size := coalesce(object_size, 0);
  p_new.mime_type := object_mime;
  p_new.preview_path := null;
  p_new.captured_at := null;
  if p_op = 'INSERT' then
    p_new.uploaded_on := now();
  else
    p_new.file_name := split_part(p_new.object_path, '/', 2);
    p_new.processing := true;
    p_new.checksum := null;
    p_new.width := null;
    p_new.height := null;
    p_new.processed_at := null;
    p_new.processing_error := null;
  end if;
  return p_new;
end
$$;
revoke all on function private.set_server_owned_file_columns(text, public.files, public.files) from public;

-- Duplicates -----------------------------------------------------------------------------------------------
-- Post-processing records each file's sha256; a file whose checksum matches another live file points at the
-- earliest such file in `duplicate_of`. Nothing is refused: the library shows a 'Duplicado' badge and a
-- 'Duplicados' filter. Whatever a client sends, this recomputes it from the checksum (which only
-- post-processing writes).
create function private.duplicate_file_of(p_file_id uuid, p_checksum text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select f.id from public.files f
   where p_checksum is not null and f.checksum = p_checksum and f.id <> p_file_id
   order by f.uploaded_on, f.id
   limit 1
$$;
revoke all on function private.duplicate_file_of(uuid, text) from public;

-- One BEFORE trigger runs these steps in the order they depend on: the write rules judge the row as sent;
-- the server-owned columns are then filled in (a replacement clears the checksum); the duplicate link is
-- computed last, from the checksum the row will really have. (Other BEFORE triggers on files, such as the
-- search document in file_search.sql, read none of these columns, so their place among them does not matter.)
create function private.before_file_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.updated_at := now();
  perform private.enforce_file_write_rules(tg_op, new, old);
  new := private.set_server_owned_file_columns(tg_op, new, old);
  new.duplicate_of := private.duplicate_file_of(new.id, new.checksum);
  return new;
end
$$;
revoke all on function private.before_file_write() from public;

create trigger files_before_write
  before insert or update on public.files
  for each row execute function private.before_file_write();

-- Tag counts for the Etiquetas screen -----------------------------------------------------------------------
-- How many files carry each tag, kept as links come and go (statement-level triggers: a bulk tag edit of
-- 10,000 files touches each of its tags' counters once) instead of counting 4 million links on every visit
-- at a million files. Counters are taken in tag order, so two statements never wait on each other in a
-- circle; two transactions could: one removes tag B's links and then adds tag A's ('Editar tags' on a
-- file), holding B's counter and waiting for A's, while another does the reverse and holds A's. So every
-- trigger that keeps shared counts (these, and the search bitmaps of file_search_bitmaps.sql) first takes
-- one lock for the rest of its transaction: writers of those rows go one at a time, readers never wait.
create function private.lock_library_counts()
returns void
language sql
volatile
set search_path = ''
as $$
  select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('private.lock_library_counts', 0))
$$;
revoke all on function private.lock_library_counts() from public;

create table private.tag_file_counts (
  tag_id uuid primary key references public.tags (id) on delete cascade,
  file_count bigint not null check (file_count >= 0)
);
alter table private.tag_file_counts enable row level security;
revoke all on private.tag_file_counts from public, anon, authenticated;

create function private.count_tag_links()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.lock_library_counts();
  if tg_op = 'INSERT' then
    insert into private.tag_file_counts (tag_id, file_count)
    select l.tag_id, count(*) from new_links l group by l.tag_id order by l.tag_id
    on conflict (tag_id) do update set file_count = private.tag_file_counts.file_count + excluded.file_count;
  else
    perform 1 from private.tag_file_counts c
      where c.tag_id in (select l.tag_id from old_links l) order by c.tag_id for update;
    update private.tag_file_counts c
       set file_count = c.file_count - removed.n
      from (select l.tag_id, count(*) as n from old_links l group by l.tag_id) as removed
     where c.tag_id = removed.tag_id;
  end if;
  return null;
end
$$;

-- Counts every tag's links again, for data loaded with triggers off (bulk imports, benchmark libraries).
create function private.recount_tag_files()
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.tag_file_counts (tag_id, file_count)
  select t.id, (select count(*) from public.file_tags ft where ft.tag_id = t.id) from public.tags t
  on conflict (tag_id) do update set file_count = excluded.file_count
$$;
revoke all on function private.count_tag_links(), private.recount_tag_files() from public;

create trigger file_tags_count_added
  after insert on public.file_tags
  referencing new table as new_links
  for each statement execute function private.count_tag_links();
create trigger file_tags_count_removed
  after delete on public.file_tags
  referencing old table as old_links
  for each statement execute function private.count_tag_links();

-- The counts as the caller may see the links: admins (and the service role) read the counters; an uploader
-- counts the links of their own files, as the file_tags policy lets them see; anyone else sees none.
create function public.tag_file_counts()
returns table (tag_id uuid, file_count bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if auth.role() = 'service_role' or private.is_admin() then
    return query select c.tag_id, c.file_count from private.tag_file_counts c where c.file_count > 0;
  elsif private.is_uploader() then
    return query
      select ft.tag_id, count(*)::bigint
        from public.file_tags ft join public.files f on f.id = ft.file_id
       where f.uploader_id = auth.uid()
       group by ft.tag_id;
  end if;
end
$$;

revoke execute on function public.tag_file_counts() from public, anon;
grant execute on function public.tag_file_counts() to authenticated, service_role;
