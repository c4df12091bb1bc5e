-- Shared links ({domain}/file/{id}, {domain}/collection/{id}) are opened by anonymous visitors. They may
-- read one public file or one public collection by its id, and nothing else: no listing of files or
-- collections (a guessed id reveals nothing unless it is shared), and only the columns a public page shows
-- (never the uploader's e-mail, storage paths or staff-only options). So anon has no table reads at all and
-- gets security-definer functions that check public themselves. A file is public while it is published and
-- its rights have not expired (private.file_is_public, file_rights_and_metadata.sql). The bytes are served by
-- the public-media function (signed URLs for public files only); the media bucket stays private.

-- The public fields of one file: the credits a person recorded, never file_metadata (GPS, camera) nor the
-- usage terms or licence.
create function private.public_file_json(p_file public.files)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_file.id,
    'nameEs', p_file.name_es,
    'nameEn', p_file.name_en,
    'descriptionEs', p_file.description_es,
    'descriptionEn', p_file.description_en,
    'extension', p_file.extension,
    'size', p_file.size,
    'isImage', p_file.is_image,
    'width', p_file.width,
    'height', p_file.height,
    'uploadedOn', p_file.uploaded_on,
    'creator', p_file.rights_creator,
    'credit', p_file.rights_credit,
    'copyright', p_file.rights_copyright
  )
$$;
revoke all on function private.public_file_json(public.files) from public;

-- One public file, or null when it is unpublished, its rights expired or it is unknown.
create function public.get_public_file(p_file_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select private.public_file_json(f) from public.files f where f.id = p_file_id and private.file_is_public(f)
$$;

-- A public collection's name and its public files (newest first), or null when it is private or unknown.
create function public.get_public_collection(p_collection_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', c.id,
    'name', c.name,
    'files', coalesce(
      (select jsonb_agg(private.public_file_json(f) order by f.uploaded_on desc, f.id)
         from public.collection_files cf
         join public.files f on f.id = cf.file_id and f.published
        where cf.collection_id = c.id and private.file_is_public(f)),
      '[]'::jsonb)
  )
  from public.collections c
  where c.id = p_collection_id and c.is_public
$$;

revoke all on function public.get_public_file(uuid), public.get_public_collection(uuid) from public;
grant execute on function public.get_public_file(uuid), public.get_public_collection(uuid)
  to anon, authenticated, service_role;

-- What public-media may sign for one file: the object of a public file, or nothing.
create function public.public_media_object(p_file_id uuid)
returns table (object_path text, is_image boolean, original_file_name text)
language sql
stable
security definer
set search_path = ''
as $$
  select f.object_path, f.is_image, f.original_file_name
    from public.files f where f.id = p_file_id and private.file_is_public(f)
$$;

-- A public collection's 'Descargar todo (ZIP)': a page of its public files by file id (keyset), or no rows
-- for a private or unknown collection.
create function public.public_collection_zip_entries(p_collection_id uuid, p_after uuid default null,
                                                     p_limit integer default 500)
returns table (id uuid, object_path text, original_file_name text, size bigint, uploaded_on timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select f.id, f.object_path, f.original_file_name, f.size, f.uploaded_on
    from public.collections c
    join public.collection_files cf on cf.collection_id = c.id
    join public.files f on f.id = cf.file_id and f.published
   where c.id = p_collection_id and c.is_public and private.file_is_public(f)
     and (p_after is null or cf.file_id > p_after)
   order by cf.file_id
   limit least(greatest(p_limit, 1), 1000)
$$;

revoke all on function public.public_media_object(uuid), public.public_collection_zip_entries(uuid, uuid, integer)
  from public, anon, authenticated;
grant execute on function public.public_media_object(uuid), public.public_collection_zip_entries(uuid, uuid, integer)
  to service_role;
