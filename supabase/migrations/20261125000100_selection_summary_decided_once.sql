-- 'Seleccionar todos' → the selection bar took 0.87 s at 100k files (goal < 300 ms): the summary behind the
-- bar counted the filtered files under RLS, so the files policy (is_admin() or the uploader's own) was
-- evaluated on each of 100k rows before they were counted. It now decides who may read what once per call,
-- exactly as search_files and count_files do (20261124000000_typed_keyset_file_search.sql): security definer
-- with private.readable_files_condition() written into the query. Same answer for every caller; the tests
-- prove an uploader's summary still counts only their own files.

create or replace function public.file_selection_summary(p_filter jsonb default null, p_file_ids uuid[] default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  summary jsonb;
begin
  execute format(
    'select jsonb_build_object(
       ''count'', count(*),
       ''published'', count(*) filter (where f.published),
       ''processing'', count(*) filter (where f.processing),
       ''undeletable'', count(*) filter (where f.processing and f.uploaded_on > now() - interval ''1 hour''))
     from public.files f where %s and %s and ($1 is null or f.id = any($1))',
    private.readable_files_condition(),
    private.file_filter_condition(case when p_filter is null and p_file_ids is null then '{}'::jsonb else p_filter end))
    into summary using p_file_ids;
  return summary;
end
$$;
