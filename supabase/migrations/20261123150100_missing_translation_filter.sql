-- A filter for files whose English texts are missing (issue 21): the public feed and the B2B partners read
-- the English fields. Same function as before plus the "translation" key, so search, 'Seleccionar todos' and
-- every bulk action on "all filtered files" keep meaning the same set:
--   {"translation": "all|missing"}
create or replace function private.file_filter_condition(p_filter jsonb)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  conditions text[] := array['true'];
  query text := btrim(coalesce(p_filter ->> 'query', ''));
  word text;
begin
  if p_filter is null then
    return 'true';
  end if;
  if jsonb_typeof(p_filter) <> 'object' then
    raise exception 'The file filter must be a JSON object' using errcode = '22023';
  end if;

  foreach word in array regexp_split_to_array(private.normalize_search_text(query), '\s+') loop
    if word <> '' then
      conditions := conditions || format('f.search_document like %L',
        '%' || replace(replace(replace(word, '\', '\\'), '%', '\%'), '_', '\_') || '%');
    end if;
  end loop;

  case coalesce(p_filter ->> 'type', 'all')
    when 'all' then null;
    when 'image' then conditions := conditions || 'f.is_image'::text;
    when 'not-image' then conditions := conditions || 'not f.is_image'::text;
    else raise exception 'Unknown file type filter "%"', p_filter ->> 'type' using errcode = '22023';
  end case;

  case coalesce(p_filter ->> 'status', 'all')
    when 'all' then null;
    when 'published' then conditions := conditions || 'f.published'::text;
    when 'unpublished' then conditions := conditions || 'not f.published'::text;
    else raise exception 'Unknown status filter "%"', p_filter ->> 'status' using errcode = '22023';
  end case;

  case coalesce(p_filter ->> 'operations', 'all')
    when 'all' then null;
    when 'OPERATIONS' then conditions := conditions || 'f.operations'::text;
    else raise exception 'Unknown operations filter "%"', p_filter ->> 'operations' using errcode = '22023';
  end case;

  -- Files whose English texts still need writing: the English title empty or still the Spanish one (an
  -- upload starts with both set to the file name), or a Spanish description with no English one.
  case coalesce(p_filter ->> 'translation', 'all')
    when 'all' then null;
    when 'missing' then conditions := conditions ||
      '(btrim(f.name_en) = '''' or f.name_en = f.name_es or (btrim(f.description_es) <> '''' and btrim(f.description_en) = ''''))'::text;
    else raise exception 'Unknown translation filter "%"', p_filter ->> 'translation' using errcode = '22023';
  end case;

  if nullif(p_filter ->> 'tagId', '') is not null then
    conditions := conditions || format(
      'exists (select 1 from public.file_tags ft where ft.file_id = f.id and ft.tag_id = %L::uuid)',
      (p_filter ->> 'tagId')::uuid);
  end if;
  if nullif(p_filter ->> 'collectionId', '') is not null then
    conditions := conditions || format(
      'exists (select 1 from public.collection_files cf where cf.file_id = f.id and cf.collection_id = %L::uuid)',
      (p_filter ->> 'collectionId')::uuid);
  end if;

  return array_to_string(conditions, ' and ');
end
$$;
revoke all on function private.file_filter_condition(jsonb) from public;
grant execute on function private.file_filter_condition(jsonb) to anon, authenticated, service_role;
