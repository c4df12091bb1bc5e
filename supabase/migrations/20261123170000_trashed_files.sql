-- Papelera (issue 21): deleting a file (single, bulk, SQL, any path) keeps it for 30 days, with its texts,
-- tags and collection links, so an admin can restore it; its object goes to the private `trash` bucket as
-- before (trash_jobs). After 30 days, or on 'Borrar definitivamente', the row and the bytes go for good.
--
-- Why a trash table rather than a `files.deleted_at` column: the row really leaves public.files, so every
-- reader of files (RLS, search_files and its counts, the bulk RPCs, the tag and collection counts, the
-- public feed, public share pages, zips, the analyst views, and the edge functions that read with the
-- service role and bypass RLS) stops seeing it at once without a `deleted_at is null` to remember in each,
-- now and in every reader written later. Realtime sends a plain DELETE (and an INSERT on restore), which the
-- open grids already follow. The cost is that restoring writes the row back (restore_files, next
-- migration), which the file triggers are taught to recognise.

create table public.trashed_files (
  file_id uuid primary key,
  -- What the Papelera lists, copied out of the snapshot so it can be selected and sorted plainly.
  name_es text not null,
  extension text not null default '',
  is_image boolean not null default false,
  -- The object the file pointed at when deleted (after any replacement): the one restore brings back.
  object_path text not null,
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
  insert into public.trashed_files (file_id, name_es, extension, is_image, object_path, file, tag_ids,
                                    collection_links, deleted_by, deleted_by_email)
  values (
    old.id, old.name_es, old.extension, old.is_image, old.object_path, to_jsonb(old) - 'search_document',
    coalesce((select array_agg(ft.tag_id order by ft.tag_id) from public.file_tags ft where ft.file_id = old.id), '{}'),
    coalesce((select jsonb_agg(jsonb_build_object('collection_id', cf.collection_id, 'added_at', cf.added_at))
                from public.collection_files cf where cf.file_id = old.id), '[]'::jsonb),
    auth.uid(),
    private.current_actor_email()
  )
  on conflict (file_id) do update
    set name_es = excluded.name_es, extension = excluded.extension, is_image = excluded.is_image,
        object_path = excluded.object_path, file = excluded.file, tag_ids = excluded.tag_ids,
        collection_links = excluded.collection_links, deleted_at = now(), deleted_by = excluded.deleted_by,
        deleted_by_email = excluded.deleted_by_email, restoring = false;
  return old;
end
$$;
revoke all on function private.keep_deleted_file_in_trash() from public;

create trigger files_keep_deleted_in_trash
  before delete on public.files
  for each row execute function private.keep_deleted_file_in_trash();

-- A trashed file's id stays taken: nobody may upload under its folder (see may_write_media_object) while
-- it can still be restored.
create or replace function private.file_exists(p_file_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.files f where f.id = p_file_id)
      or exists (select 1 from public.trashed_files t where t.file_id = p_file_id)
$$;

-- The Papelera shows thumbnails of the trashed objects (signed URLs for admins).
create policy "Admins read objects in the trash" on storage.objects
  for select to authenticated
  using (bucket_id = 'trash' and (select private.is_admin()));

-- Trash jobs may now also move an object back (a restore: from `trash` to `media`, same columns) or remove
-- it from the trash for good (a purge).
alter table public.trash_jobs
  add column action text not null default 'move' check (action in ('move', 'remove'));

-- History: a restore is one more thing that happens to a file.
alter table public.file_history drop constraint file_history_action_check;
alter table public.file_history add constraint file_history_action_check
  check (action in ('created', 'edited', 'published', 'unpublished', 'replaced', 'tagged', 'untagged',
                    'added_to_collection', 'removed_from_collection', 'deleted', 'restored'));
