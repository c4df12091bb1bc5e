-- Who uploaded a file, when, and how big it is are facts the server knows; whatever a signed-in client
-- sends for them is ignored. For any write made with a user's token (admins included):
--   * insert: uploader_id/uploader_email are the caller (from the token's user, e-mail from auth.users),
--     uploaded_on is now(), size and mime type come from the stored object's metadata in storage.objects;
--   * update: uploaded_on never changes; uploader and size change only with the object (a replacement,
--     'Subir nuevo archivo'), and then come from the caller and the new object, the file name from its
--     path, and the file goes back to `processing` with its old checksum and dimensions cleared.
-- Writes without a user (service role, SQL, seeds, migrations) are trusted as they are.
-- Runs after files_enforce_write_rules (triggers fire in name order), which still refuses a non-admin's
-- insert as someone else or their attempt to publish, so those get a clear error instead of a silent fix.

create function private.set_server_owned_file_columns()
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
revoke all on function private.set_server_owned_file_columns() from public;

create trigger files_set_server_owned_columns
  before insert or update on public.files
  for each row execute function private.set_server_owned_file_columns();

-- So a client need not send them at all (the trigger above decides them anyway for signed-in writes).
alter table public.files alter column size set default 0;
alter table public.files alter column uploader_id set default auth.uid();
