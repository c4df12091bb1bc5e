-- Two filters of the files screen (issue 21), added to the one filter condition that search, the selection
-- summary and every bulk action on "all filtered files" share, so the screen and 'Seleccionar todos' always
-- mean the same set:
--   {"translation": "all|missing"}  the English title empty or still the Spanish one (an upload starts with
--                                   both set to the file name), or a Spanish description with no English one;
--   {"duplicates": "all|only"}      files whose bytes another file already has (`duplicate_of` below).
--
-- Duplicates: post-processing records each file's sha256; a file whose checksum matches another
-- live file points at the earliest such file in `duplicate_of`. Nothing is refused: the library shows a
-- 'Duplicado' badge and a 'Duplicados' filter. The column is the server's: whatever a client sends, the
-- trigger below recomputes it from the checksum (which only post-processing writes).

alter table public.files add column duplicate_of uuid references public.files (id) on delete set null;

comment on column public.files.duplicate_of is
  'The earliest other file with the same sha256 (set by the database from checksum), or null.';

create index files_checksum_idx on public.files (checksum) where checksum is not null;
create index files_duplicate_of_idx on public.files (duplicate_of) where duplicate_of is not null;

create function private.set_duplicate_of()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.duplicate_of := case
    when new.checksum is null then null
    else (select f.id from public.files f
           where f.checksum = new.checksum and f.id <> new.id
           order by f.uploaded_on, f.id
           limit 1)
  end;
  return new;
end
$$;
revoke all on function private.set_duplicate_of() from public;

-- "zz": BEFORE triggers run in name order, so this runs after the write rules and has the last word.
create trigger files_zz_set_duplicate_of
  before insert or update on public.files
  for each row execute function private.set_duplicate_of();

-- The filter condition of 20261122120300_file_search.sql with the two new keys.
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

  case coalesce(p_filter ->> 'duplicates', 'all')
    when 'all' then null;
    when 'only' then conditions := conditions || 'f.duplicate_of is not null'::text;
    else raise exception 'Unknown duplicates filter "%"', p_filter ->> 'duplicates' using errcode = '22023';
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
