-- Search for 100,000 files (spec section 5; DESIGN.md "Scale"): every typed word must appear, accent- and
-- case-insensitively, in the file's id, names, descriptions, original file name or the names of its tags.
-- Each file keeps that text unaccented and lower-cased in `search_document`, indexed with trigrams so
-- `like '%word%'` is an index lookup; triggers keep it current when a file, its tags or a tag name change.

-- unaccent() is only STABLE (its dictionary could change); pinning the dictionary makes the result
-- immutable, which index expressions and generated text need.
create function private.normalize_search_text(p_text text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select lower(extensions.unaccent('extensions.unaccent'::regdictionary, coalesce(p_text, '')))
$$;
revoke all on function private.normalize_search_text(text) from public;
grant execute on function private.normalize_search_text(text) to anon, authenticated, service_role;

create function private.file_search_document(p_file public.files)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select private.normalize_search_text(concat_ws(' ',
    p_file.id::text, p_file.name_es, p_file.name_en, p_file.description_es, p_file.description_en,
    p_file.original_file_name,
    (select string_agg(t.name_es || ' ' || t.name_en, ' ' order by t.id)
       from public.file_tags ft join public.tags t on t.id = ft.tag_id
      where ft.file_id = p_file.id)))
$$;
revoke all on function private.file_search_document(public.files) from public;

create function private.set_file_search_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.search_document := private.file_search_document(new);
  return new;
end
$$;

create trigger files_search_document
  before insert or update of id, name_es, name_en, description_es, description_en, original_file_name, search_document
  on public.files
  for each row execute function private.set_file_search_document();

-- Tag links change in bulk (replace the tags of 100k files): refresh each affected file once per statement.
create function private.refresh_search_documents_of_linked_files()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.files f set search_document = private.file_search_document(f)
      where f.id in (select distinct file_id from new_links);
  else
    update public.files f set search_document = private.file_search_document(f)
      where f.id in (select distinct file_id from old_links);
  end if;
  return null;
end
$$;

create trigger file_tags_refresh_search_after_insert
  after insert on public.file_tags
  referencing new table as new_links
  for each statement execute function private.refresh_search_documents_of_linked_files();
create trigger file_tags_refresh_search_after_delete
  after delete on public.file_tags
  referencing old table as old_links
  for each statement execute function private.refresh_search_documents_of_linked_files();

create function private.refresh_search_documents_of_renamed_tags()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.files f set search_document = private.file_search_document(f)
    where f.id in (
      select ft.file_id from public.file_tags ft
        join renamed_tags n on n.id = ft.tag_id
        join old_tags o on o.id = n.id
       where n.name_es is distinct from o.name_es or n.name_en is distinct from o.name_en);
  return null;
end
$$;

create trigger tags_refresh_search_after_rename
  after update on public.tags
  referencing new table as renamed_tags old table as old_tags
  for each statement execute function private.refresh_search_documents_of_renamed_tags();

revoke all on function private.set_file_search_document(), private.refresh_search_documents_of_linked_files(),
  private.refresh_search_documents_of_renamed_tags() from public;

create index files_search_document_trgm_idx on public.files using gin (search_document extensions.gin_trgm_ops);
create index files_name_es_sort_idx on public.files (private.normalize_search_text(name_es), id);

-- The filters of the files screen as one JSON object, shared by search and by every bulk action on
-- "all filtered files" so both always mean the same set:
--   {"query": text, "type": "all|image|not-image", "tagId": uuid, "collectionId": uuid,
--    "status": "all|published|unpublished", "operations": "all|OPERATIONS"}
-- Returns a WHERE condition over alias `f`; user text only ever enters as quoted literals.
create function private.file_filter_condition(p_filter jsonb)
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

create function private.file_sort_clause(p_sort text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case coalesce(p_sort, 'uploadedOn_desc')
    when 'uploadedOn_desc' then 'f.uploaded_on desc, f.id desc'
    when 'uploadedOn_asc' then 'f.uploaded_on asc, f.id asc'
    when 'size_desc' then 'f.size desc, f.id desc'
    when 'size_asc' then 'f.size asc, f.id asc'
    when 'nameEs_asc' then 'private.normalize_search_text(f.name_es) asc, f.id asc'
    when 'nameEs_desc' then 'private.normalize_search_text(f.name_es) desc, f.id desc'
  end
$$;
revoke all on function private.file_sort_clause(text) from public;
grant execute on function private.file_sort_clause(text) to anon, authenticated, service_role;

-- One page of the files screen plus the number of files the filters match. Runs with the caller's
-- rights, so RLS decides what "all files" means (an uploader only ever counts their own).
create function public.search_files(
  p_filter jsonb default '{}'::jsonb,
  p_sort text default 'uploadedOn_desc',
  p_limit integer default 100,
  p_offset integer default 0
)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  condition text := private.file_filter_condition(p_filter);
  sort_clause text := private.file_sort_clause(p_sort);
  total bigint;
  page jsonb;
begin
  if sort_clause is null then
    raise exception 'Unknown sort "%"', p_sort using errcode = '22023';
  end if;
  if p_limit is null or p_limit < 0 or p_limit > 1000 or p_offset is null or p_offset < 0 then
    raise exception 'Page limit must be between 0 and 1000 and offset not negative' using errcode = '22023';
  end if;

  execute format('select count(*) from public.files f where %s', condition) into total;
  execute format(
    'select coalesce(jsonb_agg(to_jsonb(page_rows) - ''search_document''), ''[]''::jsonb) from (
       select f.* from public.files f where %s order by %s limit %s offset %s) page_rows',
    condition, sort_clause, p_limit, p_offset) into page;
  return jsonb_build_object('total', total, 'files', page);
end
$$;

-- What the selection bar needs for "select all filtered": how many, how many published, how many
-- cannot be deleted yet, without sending ids to the browser.
create function public.file_selection_summary(p_filter jsonb default null, p_file_ids uuid[] default null)
returns jsonb
language plpgsql
stable
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
     from public.files f where %s and ($1 is null or f.id = any($1))',
    private.file_filter_condition(case when p_filter is null and p_file_ids is null then '{}'::jsonb else p_filter end))
    into summary using p_file_ids;
  return summary;
end
$$;

revoke all on function public.search_files(jsonb, text, integer, integer), public.file_selection_summary(jsonb, uuid[])
  from public, anon;
grant execute on function public.search_files(jsonb, text, integer, integer), public.file_selection_summary(jsonb, uuid[])
  to authenticated, service_role;
