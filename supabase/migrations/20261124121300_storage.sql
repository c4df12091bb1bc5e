-- Buckets and object policies. Media objects live at `{fileId}/{uploadId}.{ext}` in the private `media`
-- bucket. An upload happens before its file row exists (the row is written when the upload finishes), so an
-- uploader may write under a file id nobody owns yet, or under one of their own files (replacement), never
-- under someone else's or a trashed file's. Reads follow the files policies; deletes are admins' (and the
-- trash mover's, as service role). The public feed JSON lives in the public `public-feed` bucket, written by
-- the service role only; deleted and replaced objects go to the private `trash` bucket (trash.sql).

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('media', 'media', false, 1000000000, null),
  ('public-feed', 'public-feed', true, 52428800, array['application/json']),
  ('trash', 'trash', false, 1000000000, null)
on conflict (id) do nothing;

-- The file id a media object belongs to, or null when the path has no valid uuid folder.
create function private.media_object_file_id(p_object_name text)
returns uuid
language plpgsql
immutable
set search_path = ''
as $$
declare
  folder text := split_part(p_object_name, '/', 1);
begin
  if folder ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
     and p_object_name ~ '^[^/]+/[^/]+$' then
    return folder::uuid;
  end if;
  return null;
end
$$;
revoke all on function private.media_object_file_id(text) from public;
grant execute on function private.media_object_file_id(text) to anon, authenticated, service_role;

create function private.may_write_media_object(p_object_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when private.is_admin() then private.media_object_file_id(p_object_name) is not null
    when private.is_uploader() then
      private.media_object_file_id(p_object_name) is not null
      and (not private.file_exists(private.media_object_file_id(p_object_name))
           or private.file_uploader(private.media_object_file_id(p_object_name)) = auth.uid())
    else false
  end
$$;

create function private.may_read_media_object(p_object_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when private.is_admin() then true
    when private.is_uploader() then
      private.file_uploader(private.media_object_file_id(p_object_name)) = auth.uid()
      -- Their upload has landed but its file row is not written yet.
      or (not private.file_exists(private.media_object_file_id(p_object_name))
          and exists (select 1 from storage.objects o
                       where o.bucket_id = 'media' and o.name = p_object_name and o.owner_id = auth.uid()::text))
    else false
  end
$$;

revoke all on function private.may_write_media_object(text), private.may_read_media_object(text) from public;
grant execute on function private.may_write_media_object(text), private.may_read_media_object(text)
  to authenticated, service_role;

create policy "Staff read the media objects of files they may see" on storage.objects
  for select to authenticated
  using (bucket_id = 'media' and private.may_read_media_object(name));
create policy "Staff upload media objects under their own file ids" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'media' and private.may_write_media_object(name));
create policy "Staff overwrite media objects under their own file ids" on storage.objects
  for update to authenticated
  using (bucket_id = 'media' and private.may_write_media_object(name))
  with check (bucket_id = 'media' and private.may_write_media_object(name));
create policy "Admins delete media objects" on storage.objects
  for delete to authenticated
  using (bucket_id = 'media' and (select private.is_admin()));

-- The Papelera shows thumbnails of the trashed objects (signed URLs for admins).
create policy "Admins read objects in the trash" on storage.objects
  for select to authenticated
  using (bucket_id = 'trash' and (select private.is_admin()));
