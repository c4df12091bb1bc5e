-- 'Restaurar' in the Papelera (issue 21): restore_files writes trashed files back into public.files with the
-- same id and every column as it was, puts back their tags and collection links (those that still exist),
-- and queues a trash job that moves the object back from `trash` to `media` (after any pending move the
-- other way, as jobs run in order). One transaction: all of it or nothing.
--
-- While it runs, the trashed rows are marked `restoring`, which three kinds of file triggers now read:
--   * the server-owned columns (20261123100200) keep the restored uploader, date, size and checksum
--     instead of taking them from the admin who restores and the (still trashed) object;
--   * history (20261123150200) records one 'restored' row instead of 'created' + one per tag/collection.
-- Those functions are redefined below unchanged apart from that.

create or replace function private.set_server_owned_file_columns()
returns trigger
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
    return new;
  end if;
  -- A restore writes back the row as it was (uploader, date, size, checksum); see restore_files.
  if tg_op = 'INSERT' and exists (select 1 from public.trashed_files t where t.file_id = new.id and t.restoring) then
    return new;
  end if;

  if tg_op = 'UPDATE' then
    new.uploaded_on := old.uploaded_on;
    if new.object_path is not distinct from old.object_path then
      new.size := old.size;
      new.uploader_id := old.uploader_id;
      new.uploader_email := old.uploader_email;
      return new;
    end if;
    -- A replacement: the new object must be one of this file's, already stored.
    if private.media_object_file_id(new.object_path) is distinct from new.id then
      raise exception 'The new object must be stored under the file''s own folder'
        using errcode = '22023', hint = 'INVALID_OBJECT_PATH';
    end if;
  end if;

  select true, (o.metadata ->> 'size')::bigint, nullif(split_part(o.metadata ->> 'mimetype', ';', 1), '')
    into object_found, object_size, object_mime
    from storage.objects o
   where o.bucket_id = 'media' and o.name = new.object_path;
  if tg_op = 'UPDATE' and object_found is null then
    raise exception 'The new object has not been stored yet'
      using errcode = '22023', hint = 'OBJECT_NOT_FOUND';
  end if;

  new.uploader_id := caller;
  new.uploader_email := (select u.email from auth.users u where u.id = caller);
  -- Until the object has landed the size is unknown; post-processing measures the stored bytes anyway.
  new.size := coalesce(object_size, 0);
  new.mime_type := object_mime;
  if tg_op = 'INSERT' then
    new.uploaded_on := now();
  else
    new.file_name := split_part(new.object_path, '/', 2);
    new.processing := true;
    new.checksum := null;
    new.width := null;
    new.height := null;
    new.processed_at := null;
    new.processing_error := null;
  end if;
  return new;
end
$$;

create or replace function private.record_file_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  tracked constant text[] := array['name_es', 'name_en', 'description_es', 'description_en', 'b2b', 'panorama',
                                   'operations'];
  actor_email text := private.current_actor_email();
begin
  if tg_op = 'INSERT' then
    -- A restored file (restore_files) is recorded as restored, not as a new upload.
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select n.id, actor_email,
           case when t.file_id is null then 'created' else 'restored' end,
           case when t.file_id is null then jsonb_build_object('original_file_name', n.original_file_name)
                else jsonb_build_object('name_es', n.name_es) end
      from new_files n
      left join public.trashed_files t on t.file_id = n.id and t.restoring;
  elsif tg_op = 'DELETE' then
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select o.id, actor_email, 'deleted', jsonb_build_object('name_es', o.name_es) from old_files o;
  else
    -- Texts and options: one row per file with every changed field as {old, new}.
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select n.id, actor_email, 'edited', d.changes
      from new_files n
      join old_files o on o.id = n.id
      cross join lateral (
        select jsonb_object_agg(key, jsonb_build_object('old', to_jsonb(o) -> key, 'new', to_jsonb(n) -> key)) as changes
          from unnest(tracked) as key
         where to_jsonb(o) -> key is distinct from to_jsonb(n) -> key
      ) d
     where d.changes is not null;
    insert into public.file_history (file_id, changed_by_email, action)
    select n.id, actor_email, case when n.published then 'published' else 'unpublished' end
      from new_files n join old_files o on o.id = n.id
     where n.published is distinct from o.published;
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select n.id, actor_email, 'replaced',
           jsonb_build_object('old', o.original_file_name, 'new', n.original_file_name)
      from new_files n join old_files o on o.id = n.id
     where n.object_path is distinct from o.object_path;
  end if;
  return null;
end
$$;

create or replace function private.record_file_tag_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select n.file_id, private.current_actor_email(), 'tagged', jsonb_build_object('tag', t.name_es)
      from new_links n join public.tags t on t.id = n.tag_id
     -- A restore brings its tags back with it: recorded once, as restored.
     where not exists (select 1 from public.trashed_files r where r.file_id = n.file_id and r.restoring);
  else
    -- A file deleted with its tags is recorded once, as deleted.
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select o.file_id, private.current_actor_email(), 'untagged', jsonb_build_object('tag', t.name_es)
      from old_links o join public.tags t on t.id = o.tag_id
     where exists (select 1 from public.files f where f.id = o.file_id);
  end if;
  return null;
end
$$;

create or replace function private.record_collection_file_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select n.file_id, private.current_actor_email(), 'added_to_collection', jsonb_build_object('collection', c.name)
      from new_links n join public.collections c on c.id = n.collection_id
     where not exists (select 1 from public.trashed_files r where r.file_id = n.file_id and r.restoring);
  else
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select o.file_id, private.current_actor_email(), 'removed_from_collection',
           jsonb_build_object('collection', c.name)
      from old_links o join public.collections c on c.id = o.collection_id
     where exists (select 1 from public.files f where f.id = o.file_id);
  end if;
  return null;
end
$$;


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
                            width, height, checksum)
  select r.id, r.file_name, r.object_path, r.original_file_name, r.name_es, r.name_en, r.description_es,
         r.description_en, r.size, r.uploaded_on,
         -- An uploader removed meanwhile: the file stays, without its uploader (as on delete set null).
         (select u.id from auth.users u where u.id = r.uploader_id), r.uploader_email, r.extension, r.processing,
         r.processing_error, r.processed_at, r.published, r.panorama, r.b2b, r.operations, r.mime_type,
         r.width, r.height, r.checksum
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
  select t.file_id, 'trash', t.object_path, 'media', t.object_path, auth.uid()
    from public.trashed_files t
   where t.restoring;

  delete from public.trashed_files t where t.restoring;
  return restored;
exception
  when unique_violation then
    raise exception 'A file with this id exists again' using errcode = '23505', hint = 'FILE_EXISTS';
end
$$;
revoke all on function public.restore_files(uuid[]) from public, anon;
grant execute on function public.restore_files(uuid[]) to authenticated, service_role;
