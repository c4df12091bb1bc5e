-- The capture date (files.captured_at) is what post-processing read from the file's own EXIF/XMP: like the
-- size or the checksum it is the server's fact, so a write made with a user's token (admins included) never
-- sets it. An insert starts without one, an update keeps the one the row had, and a replacement of the object
-- clears it until the new object's processing reads it again. Same function as before, with the captured_at lines added.
create or replace function private.set_server_owned_file_columns(p_op text, p_new public.files, p_old public.files)
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
