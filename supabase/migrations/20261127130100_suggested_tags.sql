-- Tags the detail screen offers under 'Etiquetas sugeridas': the existing tags whose Spanish or English name is
-- one of the keywords embedded in the file (IPTC/XMP, read at post-processing into public.file_metadata),
-- compared without accents or case, and that the file does not carry yet. Never applied by itself: a person
-- adds each one.
--
-- Security invoker: the caller's own RLS decides. Only staff who may read the file see its metadata (admins
-- every file's, uploaders their own files'), and only library staff read tags, so anyone else gets no rows.
create function public.suggested_tags(p_file_id uuid)
returns setof public.tags
language sql
stable
security invoker
set search_path = ''
as $$
  select t.*
  from public.tags t
  where exists (
      select 1
      from public.file_metadata m, unnest(m.keywords) as k(keyword)
      where m.file_id = p_file_id
        and private.normalize_search_text(btrim(k.keyword)) in (
          private.normalize_search_text(btrim(t.name_es)), private.normalize_search_text(btrim(t.name_en)))
    )
    and not exists (select 1 from public.file_tags ft where ft.file_id = p_file_id and ft.tag_id = t.id)
  order by t.name_es, t.id
$$;
comment on function public.suggested_tags(uuid) is
  'Existing tags matching the file''s embedded keywords (accent- and case-insensitive, Spanish or English name) that the file does not carry yet; empty for callers who may not read the file.';

revoke all on function public.suggested_tags(uuid) from public, anon;
grant execute on function public.suggested_tags(uuid) to authenticated, service_role;
