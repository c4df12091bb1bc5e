-- File count of every tag for the Etiquetas screen, counted in one grouped scan of file_tags (its tag_id
-- index) instead of one count query per tag from the browser: fast at 100k files and 400k+ links.
-- Security invoker, so the caller's RLS on file_tags decides which links are counted (admins: all).

create function public.tag_file_counts()
returns table (tag_id uuid, file_count bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select ft.tag_id, count(*)::bigint from public.file_tags ft group by ft.tag_id
$$;

revoke execute on function public.tag_file_counts() from public, anon;
grant execute on function public.tag_file_counts() to authenticated, service_role;
