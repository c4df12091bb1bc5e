-- The Papelera and where a deleted file's bytes go.
--
-- Deleting a file (single, bulk, SQL, any path) keeps it for 30 days, with its texts, tags and collection
-- links, so an admin can restore it; its object is moved to the private `trash` bucket by the trash mover
-- (a server job reading trash_jobs). After 30 days, or on 'Borrar definitivamente', the row and the bytes go
-- for good. Replacing a file's object ('Subir nuevo archivo') sends the old object to the trash bucket too.
-- A PDF's first-page picture (files.preview_path, beside its object in `media`) goes wherever its file goes:
-- to the trash with it, back on restore, away on purge; a picture its file no longer points at (the object
-- was replaced, or rendered again without one) is removed outright, since post-processing can redo it.
--
-- Why a trash table rather than a `files.deleted_at` column: the row really leaves public.files, so every
-- reader of files (RLS, search and its counts, the bulk RPCs, the tag and collection counts, the public
-- feed, public share pages, zips, the analyst views, and the edge functions that read with the service role
-- and bypass RLS) stops seeing it at once without a `deleted_at is null` to remember in each, now and in
-- every reader written later. Realtime sends a plain DELETE (and an INSERT on restore), which the open grids
-- already follow. The cost is that restoring writes the row back, which the file triggers recognise by the
-- trashed row's `restoring` flag.

-- Objects to move: deleted or replaced files' objects (and previews) to the trash, restored ones back, purged
-- ones removed, replaced previews removed.
-- Worked off by the `trash_objects` server job (server_jobs.sql), queued in the same transaction.
create table public.trash_jobs (
  id bigint generated always as identity primary key,
  file_id uuid not null,
  bucket_id text not null default 'media',
  object_path text not null,
  trash_bucket_id text not null default 'trash',
  trash_path text not null,
  deleted_on timestamptz not null default now(),
  deleted_by uuid,
  pending boolean not null default true,
  attempts integer not null default 0,
  last_error text check (char_length(last_error) <= 2000),
  done_at timestamptz,
  -- 'move' from bucket_id to trash_bucket_id (a restore moves from `trash` back to `media`), or 'remove'
  -- from the trash for good (a purge).
  action text not null default 'move' check (action in ('move', 'remove'))
);
create index trash_jobs_pending_idx on public.trash_jobs (deleted_on) where pending;

alter table public.trash_jobs enable row level security;
create policy "Admins read trash jobs" on public.trash_jobs
  for select to authenticated using ((select private.is_admin()));

revoke all on public.trash_jobs from anon, authenticated;
grant select on public.trash_jobs to authenticated;
grant all on public.trash_jobs to service_role;

create function private.queue_trash_jobs_for_deleted_files()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.trash_jobs (file_id, object_path, trash_path, deleted_by)
  select d.id, o.path, o.path, auth.uid()
    from deleted_files d
   cross join lateral (values (d.object_path), (d.preview_path)) as o(path)
   where o.path is not null;
  return null;
end
$$;
revoke all on function private.queue_trash_jobs_for_deleted_files() from public;

create trigger files_queue_trash_jobs
  after delete on public.files
  referencing old table as deleted_files
  for each statement execute function private.queue_trash_jobs_for_deleted_files();

create function private.queue_trash_job_for_replaced_object()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.trash_jobs (file_id, object_path, trash_path, deleted_by)
  values (old.id, old.object_path, old.object_path, auth.uid());
  return null;
end
$$;
revoke all on function private.queue_trash_job_for_replaced_object() from public;

create trigger files_queue_trash_job_for_replaced_object
  after update of object_path on public.files
  for each row
  when (old.object_path is distinct from new.object_path)
  execute function private.queue_trash_job_for_replaced_object();

-- Not `update of preview_path`: a replacement clears it in a BEFORE trigger (files.sql), which such a trigger
-- would not see.
create function private.queue_removal_of_replaced_preview()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.trash_jobs (file_id, bucket_id, object_path, trash_bucket_id, trash_path, deleted_by, action)
  values (old.id, 'media', old.preview_path, 'media', old.preview_path, auth.uid(), 'remove');
  return null;
end
$$;
revoke all on function private.queue_removal_of_replaced_preview() from public;

create trigger files_queue_removal_of_replaced_preview
  after update on public.files
  for each row
  when (old.preview_path is not null and old.preview_path is distinct from new.preview_path)
  execute function private.queue_removal_of_replaced_preview();

-- The trashed files -----------------------------------------------------------------------------------------

create table public.trashed_files (
  file_id uuid primary key,
  -- What the Papelera lists, copied out of the snapshot so it can be selected and sorted plainly.
  name_es text not null,
  extension text not null default '',
  is_image boolean not null default false,
  -- The object the file pointed at when deleted (after any replacement): the one restore brings back.
  object_path text not null,
  -- Its first-page picture (a PDF's), moved to the trash with it: what the Papelera shows.
  preview_path text,
  -- The files row as it was, to write back as it was.
  file jsonb not null,
  tag_ids uuid[] not null default '{}',
  -- [{collection_id, added_at}]
  collection_links jsonb not null default '[]'::jsonb,
  deleted_at timestamptz not null default now(),
  deleted_by uuid references auth.users (id) on delete set null,
  deleted_by_email text check (char_length(deleted_by_email) <= 320),
  -- True only inside restore_files' transaction: how the file triggers tell a restore from an upload. No
  -- API role may write this table, so nobody else can set it.
  restoring boolean not null default false
);

comment on table public.trashed_files is
  'Deleted files kept for 30 days (Papelera): snapshot of the row, its tags and collection links. Admins read it; only the database writes it.';

create index trashed_files_deleted_at_idx on public.trashed_files (deleted_at desc, file_id);
create index trashed_files_deleted_by_idx on public.trashed_files (deleted_by);

alter table public.trashed_files enable row level security;
create policy "Admins read the trashed files" on public.trashed_files
  for select to authenticated using ((select private.is_admin()));

revoke all on public.trashed_files from anon, authenticated;
grant select on public.trashed_files to authenticated;
grant all on public.trashed_files to service_role;

-- Before the row goes (and its links with it, by cascade), keep a copy. Row-level BEFORE DELETE is the one
-- place where the file's tag and collection links are still there, whatever statement deleted it.
create function private.keep_deleted_file_in_trash()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.trashed_files (file_id, name_es, extension, is_image, object_path, preview_path, file,
                                    tag_ids, collection_links, deleted_by, deleted_by_email)
  values (
    old.id, old.name_es, old.extension, old.is_image, old.object_path, old.preview_path,
    to_jsonb(old) - 'search_document',
    coalesce((select array_agg(ft.tag_id order by ft.tag_id) from public.file_tags ft where ft.file_id = old.id), '{}'),
    coalesce((select jsonb_agg(jsonb_build_object('collection_id', cf.collection_id, 'added_at', cf.added_at))
                from public.collection_files cf where cf.file_id = old.id), '[]'::jsonb),
    auth.uid(),
    private.current_actor_email()
  )
  on conflict (file_id) do update
    set name_es = excluded.name_es, extension = excluded.extension, is_image = excluded.is_image,
        object_path = excluded.object_path, preview_path = excluded.preview_path, file = excluded.file,
        tag_ids = excluded.tag_ids,
        collection_links = excluded.collection_links, deleted_at = now(), deleted_by = excluded.deleted_by,
        deleted_by_email = excluded.deleted_by_email, restoring = false;
  return old;
end
$$;
revoke all on function private.keep_deleted_file_in_trash() from public;

create trigger files_keep_deleted_in_trash
  before delete on public.files
  for each row execute function private.keep_deleted_file_in_trash();

-- A file id is taken while the file lives or can still be restored: nobody may upload under a trashed
-- file's folder (private.may_write_media_object, storage.sql).
create function private.file_exists(p_file_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.files f where f.id = p_file_id)
      or exists (select 1 from public.trashed_files t where t.file_id = p_file_id)
$$;
revoke all on function private.file_exists(uuid) from public;
grant execute on function private.file_exists(uuid) to anon, authenticated, service_role;

-- 'Restaurar' -----------------------------------------------------------------------------------------------
-- Writes trashed files back into public.files with the same id and every column as it was, puts back their
-- tags and collection links (those that still exist), and queues trash jobs that move the object and its
-- preview back from `trash` to `media` (after any pending move the other way, as jobs run in order). One
-- transaction.
create function public.restore_files(p_file_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  restored integer;
begin
  perform private.require_admin();
  update public.trashed_files t set restoring = true where t.file_id = any(coalesce(p_file_ids, '{}'));
  get diagnostics restored = row_count;
  if restored = 0 then
    return 0;
  end if;

  insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, description_es,
                            description_en, size, uploaded_on, uploader_id, uploader_email, extension, processing,
                            processing_error, processed_at, published, panorama, b2b, operations, mime_type,
                            width, height, checksum, preview_path)
  select r.id, r.file_name, r.object_path, r.original_file_name, r.name_es, r.name_en, r.description_es,
         r.description_en, r.size, r.uploaded_on,
         -- An uploader removed meanwhile: the file stays, without its uploader (as on delete set null).
         (select u.id from auth.users u where u.id = r.uploader_id), r.uploader_email, r.extension, r.processing,
         r.processing_error, r.processed_at, r.published, r.panorama, r.b2b, r.operations, r.mime_type,
         r.width, r.height, r.checksum, t.preview_path
    from public.trashed_files t
   cross join lateral jsonb_populate_record(null::public.files, t.file) r
   where t.restoring;

  insert into public.file_tags (file_id, tag_id)
  select t.file_id, tag.id
    from public.trashed_files t
   cross join unnest(t.tag_ids) as link(tag_id)
    join public.tags tag on tag.id = link.tag_id
   where t.restoring
  on conflict do nothing;

  insert into public.collection_files (collection_id, file_id, added_at)
  select c.id, t.file_id, coalesce((link ->> 'added_at')::timestamptz, now())
    from public.trashed_files t
   cross join jsonb_array_elements(t.collection_links) as link
    join public.collections c on c.id = (link ->> 'collection_id')::uuid
   where t.restoring
  on conflict do nothing;

  -- The bytes: from the trash back to where the row points.
  insert into public.trash_jobs (file_id, bucket_id, object_path, trash_bucket_id, trash_path, deleted_by)
  select t.file_id, 'trash', o.path, 'media', o.path, auth.uid()
    from public.trashed_files t
   cross join lateral (values (t.object_path), (t.preview_path)) as o(path)
   where t.restoring and o.path is not null;

  delete from public.trashed_files t where t.restoring;
  return restored;
exception
  when unique_violation then
    raise exception 'A file with this id exists again' using errcode = '23505', hint = 'FILE_EXISTS';
end
$$;
revoke all on function public.restore_files(uuid[]) from public, anon;
grant execute on function public.restore_files(uuid[]) to authenticated, service_role;

-- Purging ---------------------------------------------------------------------------------------------------
-- The 30 days are kept by the server job queue, not by a browser: trashing a file queues one `purge_trash`
-- job due 30 days later (server_jobs.sql; coalesced, the earliest pending one stays); when it runs it purges
-- whatever has expired by then and queues itself again for the next file to expire.

create function private.trash_retention()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '30 days'
$$;
revoke all on function private.trash_retention() from public;
grant execute on function private.trash_retention() to authenticated, service_role;

-- Forgets trashed files for good: their rows, and (by trash jobs) every object of theirs in the trash bucket
-- (the one they had when deleted, its preview, and those replaced before).
create function private.forget_trashed_files(p_file_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  forgotten uuid[];
begin
  with gone as (
    delete from public.trashed_files t where t.file_id = any(p_file_ids) returning t.file_id, t.object_path
  )
  select coalesce(array_agg(file_id), '{}') into forgotten from gone;
  insert into public.trash_jobs (file_id, bucket_id, object_path, trash_bucket_id, trash_path, deleted_by, action)
  select distinct on (j.trash_path) j.file_id, 'trash', j.trash_path, 'trash', j.trash_path, auth.uid(), 'remove'
    from public.trash_jobs j
   where j.file_id = any(forgotten) and j.action = 'move' and j.trash_bucket_id = 'trash'
   order by j.trash_path, j.id;
  return coalesce(array_length(forgotten, 1), 0);
end
$$;
revoke all on function private.forget_trashed_files(uuid[]) from public;

-- 'Borrar definitivamente' (admins).
create function public.purge_trashed_files(p_file_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.forget_trashed_files(coalesce(p_file_ids, '{}'));
end
$$;
revoke all on function public.purge_trashed_files(uuid[]) from public, anon;
grant execute on function public.purge_trashed_files(uuid[]) to authenticated, service_role;

-- The purge_trash job's work (run-jobs, service role): files trashed more than 30 days ago.
create function public.purge_expired_trash()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  purged integer;
  next_expiry timestamptz;
begin
  purged := private.forget_trashed_files(array(
    select t.file_id from public.trashed_files t where t.deleted_at <= now() - private.trash_retention()));
  select min(t.deleted_at) + private.trash_retention() into next_expiry from public.trashed_files t;
  if next_expiry is not null then
    perform private.queue_server_job('purge_trash', 'purge_trash', null, greatest(next_expiry - now(), interval '0 seconds'));
  end if;
  return purged;
end
$$;
revoke all on function public.purge_expired_trash() from public, anon, authenticated;
grant execute on function public.purge_expired_trash() to service_role;
