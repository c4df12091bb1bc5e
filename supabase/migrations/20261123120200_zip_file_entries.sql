-- 'Descargar ZIP' of a selection on the files screen: the files-zip function pages through what the caller
-- may read of the selection (explicit ids or "every file the filters match", as the bulk actions take it).
-- Security invoker, so RLS decides: an uploader's ZIP holds only their own files, whatever ids are sent.
-- Keyset pages by id keep each call small however large the selection.

create function public.zip_file_entries(
  p_file_ids uuid[] default null,
  p_filter jsonb default null,
  p_after uuid default null,
  p_limit integer default 500
)
returns table (id uuid, object_path text, original_file_name text, size bigint, uploaded_on timestamptz)
language sql
stable
set search_path = ''
as $$
  select f.id, f.object_path, f.original_file_name, f.size, f.uploaded_on
    from public.files f
   where f.id = any(private.target_file_ids(p_file_ids, p_filter))
     and (p_after is null or f.id > p_after)
   order by f.id
   limit least(greatest(p_limit, 1), 1000)
$$;

revoke all on function public.zip_file_entries(uuid[], jsonb, uuid, integer) from public;
grant execute on function public.zip_file_entries(uuid[], jsonb, uuid, integer) to authenticated, service_role;
