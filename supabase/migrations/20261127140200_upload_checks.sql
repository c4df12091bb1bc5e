-- Asked by the upload screen before any byte of a file is sent: is it already in the library?
--
-- The browser hashes a file (sha256, the digest post-processing writes to files.checksum) and asks which of
-- its checksums some live file already has. An uploader reads only their own files through RLS, so a plain
-- select would miss a copy someone else uploaded; these functions look at every file but say about another
-- person's file no more than "a file with exactly these bytes exists": the id and title only of a file the
-- caller may open (an admin: any; an uploader: their own). Learning that much requires having the bytes
-- already, which is all an uploader could learn by uploading them anyway (the 'Duplicado' badge).
--
-- Hashing 10^9 bytes in a browser takes seconds, so large files are first matched by size: only a file
-- whose exact size some library file has is hashed. Small files are always hashed (milliseconds), and the
-- size question is asked only above LARGE_FILE_BYTES of the client (64 MiB), which the index below serves.

create index files_large_size_idx on public.files (size) where size >= 67108864;

-- Which of these sizes (each at least 64 MiB) some live file has.
create function public.upload_sizes_in_library(p_sizes bigint[])
returns bigint[]
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_library_staff() then
    raise exception 'Solo el personal de la biblioteca puede comprobar subidas.' using errcode = '42501';
  end if;
  if coalesce(cardinality(p_sizes), 0) > 1000 then
    raise exception 'Se pueden comprobar como mucho 1000 archivos a la vez.' using errcode = '22023';
  end if;
  return coalesce((
    select array_agg(distinct f.size order by f.size)
      from public.files f
     where f.size >= 67108864 and f.size = any (p_sizes)
  ), '{}');
end
$$;

-- For each of these checksums that some live file has: the earliest such file's id and Spanish title when
-- the caller may open it, nulls otherwise (it exists, but is someone else's).
create function public.uploads_in_library(p_checksums text[])
returns table (checksum text, file_id uuid, name_es text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_admin boolean := private.is_admin();
begin
  if not private.is_library_staff() then
    raise exception 'Solo el personal de la biblioteca puede comprobar subidas.' using errcode = '42501';
  end if;
  if coalesce(cardinality(p_checksums), 0) > 1000 then
    raise exception 'Se pueden comprobar como mucho 1000 archivos a la vez.' using errcode = '22023';
  end if;
  return query
    select distinct on (f.checksum)
           f.checksum,
           case when v_admin or f.uploader_id = auth.uid() then f.id end,
           case when v_admin or f.uploader_id = auth.uid() then f.name_es end
      from public.files f
     where f.checksum = any (p_checksums)
     -- The caller's own (or, for an admin, any) copy first, so a link is given whenever one can be.
     order by f.checksum, (v_admin or f.uploader_id = auth.uid()) desc, f.uploaded_on, f.id;
end
$$;

revoke all on function public.upload_sizes_in_library(bigint[]), public.uploads_in_library(text[]) from public, anon;
grant execute on function public.upload_sizes_in_library(bigint[]), public.uploads_in_library(text[])
  to authenticated, service_role;
