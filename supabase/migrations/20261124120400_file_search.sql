-- Search, filters and paging of the files screen, for a million files and more: every typed word must
-- appear, accent- and case-insensitively, in the file's id, names,
-- descriptions, original file name or the names of its tags.
--
-- Each file keeps its own text unaccented and lower-cased in `search_document`, and the letter-and-digit runs
-- of its words (its "terms") by id in a narrow row of private.file_search, with one term per tag it carries and
-- copies of the columns the screen filters on. A typed word stands for the terms that contain it and the tags
-- whose names do; the files holding any of those are one GIN lookup. Search pages through files with that
-- lookup; count_files counts from bitmaps of the same terms (file_search_bitmaps.sql) or, for what those do
-- not hold, from the lookup, without touching the wide files rows. Tagging a file, or renaming a tag, changes
-- no files row: a bulk tag edit of 10,000 files adds 10,000 narrow rows' terms instead of rewriting 10,000
-- wide rows and their text indexes.
--
-- The filters are one JSON object (private.file_filter_parts), shared by search, the count, the selection
-- summary and every bulk action on "all filtered files" (bulk_file_actions.sql), so the screen and
-- 'Seleccionar todos' always mean the same set.

-- The search text -------------------------------------------------------------------------------------------

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

-- The file's words: its names, descriptions, original file name, author and credit line (rights_creator,
-- rights_credit), normalised. The search index keeps their terms (below).
create function private.file_search_words(p_file public.files)
returns text
language sql
immutable
set search_path = ''
as $$
  select private.normalize_search_text(concat_ws(' ',
    p_file.name_es, p_file.name_en, p_file.description_es, p_file.description_en, p_file.original_file_name,
    p_file.rights_creator, p_file.rights_credit))
$$;

-- The file's own text: its id and its words; its tags' names are matched through their ids (the search index).
-- Not written as a call of file_search_words: a function with its own search_path is not inlined, and the
-- nested call cost ~0.1 ms per row of every insert (a 1,000-file insert: 17 → 112 ms in this trigger).
create function private.file_search_document(p_file public.files)
returns text
language sql
immutable
set search_path = ''
as $$
  select private.normalize_search_text(concat_ws(' ',
    p_file.id::text, p_file.name_es, p_file.name_en, p_file.description_es, p_file.description_en,
    p_file.original_file_name, p_file.rights_creator, p_file.rights_credit))
$$;
revoke all on function private.file_search_words(public.files), private.file_search_document(public.files)
  from public;

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
revoke all on function private.set_file_search_document() from public;

create trigger files_search_document
  before insert or update of id, name_es, name_en, description_es, description_en, original_file_name,
    rights_creator, rights_credit, search_document
  on public.files
  for each row execute function private.set_file_search_document();

-- The search index -----------------------------------------------------------------------------------------
-- A typed word that is all letters and digits appears in a file's words exactly when it appears inside one of
-- their letter-and-digit runs (their terms): the word has no other character, so no occurrence can cross a
-- space, a dash or a dot. So every file's terms are kept, by id, in its narrow file_search row, with one more
-- term per tag it carries ('#' and the tag's id: no text has a '#' in a term), and a word stands for the terms
-- that contain it plus the terms of the tags whose names contain it. Words with other characters
-- ('piscina-2', 'img_20'), words inside thousands of terms, and words of hexadecimal digits only, which could
-- be part of a file's id or a number ('3fa85f64', '2024', 'cafe'), are matched with `like` on the text, which
-- holds the id (its trigram index), or through the tags. So neither the id's pieces nor terms of hexadecimal
-- digits are kept: mostly unique to their file, they were nine tenths of the vocabulary at 1M files, and each
-- upload wrote several random entries into its indexes.
-- Terms no file uses any more stay in the vocabulary: they only cost a row each.

create table private.search_terms (
  id integer generated always as identity primary key,
  term text not null unique
);
create index search_terms_term_trgm_idx on private.search_terms using gin (term extensions.gin_trgm_ops);

create table private.file_search (
  file_id uuid primary key references public.files (id) on delete cascade,
  term_ids integer[] not null,
  -- The same names as in files, so a filter's condition on `f` reads either table.
  is_image boolean not null,
  published boolean not null,
  operations boolean not null,
  duplicate_of uuid,
  uploader_id uuid,
  -- The file's bit in the search bitmaps that count_files counts (file_search_bitmaps.sql); never reused.
  slot integer generated always as identity
);
create index file_search_term_ids_idx on private.file_search using gin (term_ids);
-- A word (or a tag) and a type, the files screen's commonest pair ('piscina' and 'Imágenes'): the type
-- halves what the index hands over, so a total visits only the files of that type: on a 1M library, a word
-- in 6.5% of the files and images counted in 17 ms instead of 26. Each file has its terms in one more
-- index, the one of its type.
create index file_search_image_term_ids_idx on private.file_search using gin (term_ids) where is_image;
create index file_search_document_term_ids_idx on private.file_search using gin (term_ids) where not is_image;

-- Derived data the functions here read and write; no API role reads it.
alter table private.search_terms enable row level security;
alter table private.file_search enable row level security;
revoke all on private.search_terms, private.file_search from public, anon, authenticated;

-- The letter-and-digit runs of a text that a typed word can be looked up in: not those of hexadecimal digits
-- only ('2024', '20240612', 'cafe'), since every word inside one of them is read from the text instead (see
-- private.search_word). Numbers in names and original file names ('IMG_20240612_123456') are mostly unique
-- to their file, and would otherwise be most of the vocabulary.
create function private.search_text_terms(p_text text)
returns setof text
language sql
immutable
parallel safe
rows 20
set search_path = ''
as $$
  select distinct t.term from regexp_split_to_table(p_text, '[^[:alnum:]]+') as t(term)
   where t.term <> '' and t.term !~ '^[0-9a-f]+$'
$$;

-- The term that stands for a tag in the index of the files carrying it.
create function private.tag_search_term(p_tag_id uuid)
returns text
language sql
immutable
set search_path = ''
as $$
  select '#' || p_tag_id::text
$$;

-- Brings these files' rows of the index up to date: their terms (unless p_terms is false) and the filter
-- columns. New terms go in one sorted insert, so two writers adding the same new terms lock them in one order.
create function private.index_files_for_search(p_file_ids uuid[], p_terms boolean default true)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not p_terms then
    update private.file_search s
       set is_image = f.is_image, published = f.published, operations = f.operations,
           duplicate_of = f.duplicate_of, uploader_id = f.uploader_id
      from public.files f
     where f.id = any(p_file_ids) and s.file_id = f.id;
    return;
  end if;
  insert into private.search_terms (term)
  select distinct x.term
    from (select t.term from public.files f cross join private.search_text_terms(private.file_search_words(f)) as t(term)
           where f.id = any(p_file_ids)
          union all
          select private.tag_search_term(ft.tag_id) from public.file_tags ft where ft.file_id = any(p_file_ids)) as x
   order by 1
  on conflict (term) do nothing;
  -- The text is split into terms again rather than kept from the insert above: that insert does nothing for a
  -- term another writer added and has not committed yet (on conflict waits, then skips it), and this statement,
  -- with a snapshot of its own, sees it.
  -- Set-based, one join of every (file, term) pair with the vocabulary: a lookup per pair for an upload, one
  -- hash join for a whole library (a correlated lookup per file planned as a vocabulary scan made rebuilding
  -- 100k files' rows take minutes).
  with pairs as (
    select f.id as file_id, t.term
      from public.files f cross join private.search_text_terms(private.file_search_words(f)) as t(term)
     where f.id = any(p_file_ids)
    union
    select ft.file_id, private.tag_search_term(ft.tag_id) from public.file_tags ft where ft.file_id = any(p_file_ids)
  ), file_terms as (
    select p.file_id, array_agg(st.id order by st.id) as term_ids
      from pairs p join private.search_terms st on st.term = p.term
     group by p.file_id
  )
  insert into private.file_search (file_id, term_ids, is_image, published, operations, duplicate_of, uploader_id)
  select f.id, coalesce(ft.term_ids, '{}'), f.is_image, f.published, f.operations, f.duplicate_of, f.uploader_id
    from public.files f left join file_terms ft on ft.file_id = f.id
   where f.id = any(p_file_ids)
  on conflict (file_id) do update
    set term_ids = excluded.term_ids, is_image = excluded.is_image, published = excluded.published,
        operations = excluded.operations, duplicate_of = excluded.duplicate_of, uploader_id = excluded.uploader_id;
end
$$;

create function private.index_changed_files_for_search()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.index_files_for_search(array(select n.id from new_files n));
    return null;
  end if;
  perform private.index_files_for_search(array(
    select n.id from new_files n join old_files o on o.id = n.id
     where n.search_document is distinct from o.search_document));
  perform private.index_files_for_search(array(
    select n.id from new_files n join old_files o on o.id = n.id
     where n.search_document is not distinct from o.search_document
       and (n.is_image, n.published, n.operations, n.duplicate_of, n.uploader_id)
           is distinct from (o.is_image, o.published, o.operations, o.duplicate_of, o.uploader_id)), false);
  return null;
end
$$;

create trigger files_index_for_search_after_insert
  after insert on public.files
  referencing new table as new_files
  for each statement execute function private.index_changed_files_for_search();
create trigger files_index_for_search_after_update
  after update on public.files
  referencing old table as old_files new table as new_files
  for each statement execute function private.index_changed_files_for_search();

-- The index term of each of these tags, looked up one tag at a time: a join of a bulk edit's links with the
-- vocabulary was planned as a scan of the whole vocabulary (3M terms at 1M files, when it still held numbers).
create function private.tag_term_ids(p_tag_ids uuid[])
returns table (tag_id uuid, term_id integer)
language sql
stable
set search_path = ''
as $$
  select t.id, (select st.id from private.search_terms st where st.term = private.tag_search_term(t.id))
    from unnest(p_tag_ids) as t(id)
$$;

-- Tags put on or taken off: only the narrow rows of those files change, by their tag terms.
create function private.index_changed_tag_links_for_search()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into private.search_terms (term)
    select distinct private.tag_search_term(l.tag_id) from new_links l order by 1
    on conflict (term) do nothing;
    update private.file_search s
       set term_ids = array(select distinct x from unnest(s.term_ids || added.term_ids) as x order by 1)
      from (select l.file_id, array_agg(t.term_id) as term_ids
              from new_links l join private.tag_term_ids(array(select distinct n.tag_id from new_links n)) t
                on t.tag_id = l.tag_id
             group by l.file_id) as added
     where s.file_id = added.file_id;
  else
    update private.file_search s
       set term_ids = array(select x from unnest(s.term_ids) as x where x <> all (removed.term_ids) order by 1)
      from (select l.file_id, array_agg(t.term_id) as term_ids
              from old_links l join private.tag_term_ids(array(select distinct o.tag_id from old_links o)) t
                on t.tag_id = l.tag_id
             group by l.file_id) as removed
     where s.file_id = removed.file_id;
  end if;
  return null;
end
$$;

create trigger file_tags_index_for_search_after_insert
  after insert on public.file_tags
  referencing new table as new_links
  for each statement execute function private.index_changed_tag_links_for_search();
create trigger file_tags_index_for_search_after_delete
  after delete on public.file_tags
  referencing old table as old_links
  for each statement execute function private.index_changed_tag_links_for_search();

revoke all on function private.search_text_terms(text), private.tag_search_term(uuid), private.tag_term_ids(uuid[]),
  private.index_files_for_search(uuid[], boolean), private.index_changed_files_for_search(),
  private.index_changed_tag_links_for_search() from public;

-- A typed word as a `like` pattern: anywhere in the text, its own '\', '%' and '_' taken literally.
create function private.contains_pattern(p_word text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select '%' || replace(replace(replace(p_word, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;
revoke all on function private.contains_pattern(text) from public;
grant execute on function private.contains_pattern(text) to anon, authenticated, service_role;

-- What a typed word (normalised) stands for in the index: the terms it is part of (for a word of letters and
-- digits only) and the tags whose names hold it (any word). An empty array: no file has it that way.
create function private.search_text_term_ids(p_word text)
returns integer[]
language sql
stable
security definer
set search_path = ''
as $$
  select array(select t.id from private.search_terms t
                where p_word !~ '[^[:alnum:]]' and t.term like private.contains_pattern(p_word)
                  and t.term not like '#%' and t.term not like '@%'
                order by 1)
$$;

create function private.search_tag_term_ids(p_word text)
returns integer[]
language sql
stable
security definer
set search_path = ''
as $$
  select array(select st.id from public.tags tg
                 join private.search_terms st on st.term = private.tag_search_term(tg.id)
                where private.normalize_search_text(tg.name_es || ' ' || tg.name_en) like private.contains_pattern(p_word)
                order by 1)
$$;

-- One typed word (normalised) with what it stands for in the search index, looked up once per call (a trigram
-- search of the vocabulary and of the tags' names): a search and its count each read every word's ids in
-- several places.
create type private.search_word as (
  word text,
  -- The terms it is part of and the tags whose names hold it (empty: no file has it that way), or null when
  -- the word is matched on the text instead: a word with other characters than letters and digits
  -- ('img_20', 'piscina-2'), one that could be part of a file's id (hexadecimal digits only), or one part of
  -- so many terms ('foto' in 'foto1' … 'foto999') that testing each file's terms against all of them costs
  -- more than the text's trigram index.
  term_ids integer[]
);

create function private.search_word(p_word text)
returns private.search_word
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result private.search_word := row(p_word, null);
begin
  if p_word ~ '[^[:alnum:]]' or p_word ~ '^[0-9a-f]+$' then
    return result;
  end if;
  result.term_ids := private.search_text_term_ids(p_word);
  if cardinality(result.term_ids) > 256 then
    result.term_ids := null;
  else
    result.term_ids := result.term_ids || private.search_tag_term_ids(p_word);
  end if;
  return result;
end
$$;

-- What a word's index terms ask of a file's index row `p_alias`.
create function private.search_terms_condition(p_term_ids integer[], p_alias text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when cardinality(p_term_ids) = 0 then 'false'
              else format('%s.term_ids && %L::integer[]', p_alias, p_term_ids) end
$$;

-- What the words matched through the index ask of a file's index row `p_alias`, one test per word (none for
-- the words read from the text).
create function private.search_index_tests(p_words private.search_word[], p_alias text)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array(select private.search_terms_condition(w.term_ids, p_alias)
                 from unnest(p_words) as w where w.term_ids is not null)
$$;

revoke all on function private.search_text_term_ids(text), private.search_tag_term_ids(text),
  private.search_word(text), private.search_terms_condition(integer[], text),
  private.search_index_tests(private.search_word[], text) from public;
grant execute on function private.search_word(text), private.search_terms_condition(integer[], text)
  to anon, authenticated, service_role;

-- Indexes ---------------------------------------------------------------------------------------------------
-- One btree per sort on (key, id), both in the same direction, so a keyset page `(key, id) < (…)` is an index
-- condition either way; partial ones for the type filter; and one holding only the files that need English
-- texts ('Sin traducir'), its predicate written exactly as private.file_filter_parts writes the filter so the
-- planner can match the two. And the trigrams of the text, for the words the search index does not take.
create index files_search_document_trgm_idx on public.files using gin (search_document extensions.gin_trgm_ops);
create index files_name_es_sort_idx on public.files (private.normalize_search_text(name_es), id);
create index files_uploaded_on_id_idx on public.files (uploaded_on, id);
create index files_size_idx on public.files (size, id);
create index files_images_uploaded_on_idx on public.files (uploaded_on, id) where is_image;
create index files_documents_uploaded_on_idx on public.files (uploaded_on, id) where not is_image;
create index files_missing_translation_idx on public.files (uploaded_on desc, id)
  where (btrim(name_en) = '' or name_en = name_es or (btrim(description_es) <> '' and btrim(description_en) = ''));

-- The filters -----------------------------------------------------------------------------------------------
--   {"query": text, "type": "all|image|not-image", "tagId": uuid, "collectionId": uuid,
--    "status": "all|published|unpublished", "operations": "all|OPERATIONS",
--    "translation": "all|missing", "duplicates": "all|only"}
-- Parsed once per call into the words typed (normalised, with their index terms), the tag, the collection, and
-- conditions over alias `f`: on columns the search index keeps too (file_search: type, status, operations,
-- duplicates) and on the file's texts (translation). User text only ever enters them as quoted literals.
create type private.file_filter as (
  words private.search_word[],
  tag_id uuid,
  collection_id uuid,
  column_conditions text[],
  text_conditions text[],
  -- The column conditions again as facets of the search bitmaps ('@image'; '-@image' for the files without it),
  -- which count_files counts from (file_search_bitmaps.sql).
  facets text[]
);

-- 'No se pudo procesar' ({"processing": "failed"}, processing_failures.sql) and 'Derechos' ({"rights":
-- "expired" | "expiring" | "no-creator"}, file_rights_and_metadata.sql) are date- or state-dependent, so not
-- facets of the search bitmaps: like 'Sin traducir', conditions on the file's row, which count_files counts from
-- the files themselves (the date ones from files_rights_expire_on_idx).
create function private.file_filter_parts(p_filter jsonb)
returns private.file_filter
language plpgsql
stable
set search_path = ''
as $$
declare
  parts private.file_filter := row('{}', null, null, '{}', '{}', '{}');
begin
  if p_filter is null then
    return parts;
  end if;
  if jsonb_typeof(p_filter) <> 'object' then
    raise exception 'The file filter must be a JSON object' using errcode = '22023';
  end if;

  parts.words := array(select private.search_word(w)
                         from regexp_split_to_table(
                                private.normalize_search_text(btrim(coalesce(p_filter ->> 'query', ''))), '\s+') as w
                        where w <> '');

  case coalesce(p_filter ->> 'type', 'all')
    when 'all' then null;
    when 'image' then
      parts.column_conditions := parts.column_conditions || 'f.is_image'::text;
      parts.facets := parts.facets || '@image'::text;
    when 'not-image' then
      parts.column_conditions := parts.column_conditions || 'not f.is_image'::text;
      parts.facets := parts.facets || '-@image'::text;
    else raise exception 'Unknown file type filter "%"', p_filter ->> 'type' using errcode = '22023';
  end case;

  case coalesce(p_filter ->> 'status', 'all')
    when 'all' then null;
    when 'published' then
      parts.column_conditions := parts.column_conditions || 'f.published'::text;
      parts.facets := parts.facets || '@published'::text;
    when 'unpublished' then
      parts.column_conditions := parts.column_conditions || 'not f.published'::text;
      parts.facets := parts.facets || '-@published'::text;
    else raise exception 'Unknown status filter "%"', p_filter ->> 'status' using errcode = '22023';
  end case;

  case coalesce(p_filter ->> 'operations', 'all')
    when 'all' then null;
    when 'OPERATIONS' then
      parts.column_conditions := parts.column_conditions || 'f.operations'::text;
      parts.facets := parts.facets || '@operations'::text;
    else raise exception 'Unknown operations filter "%"', p_filter ->> 'operations' using errcode = '22023';
  end case;

  -- Files whose English texts still need writing: the English title empty or still the Spanish one (an
  -- upload starts with both set to the file name), or a Spanish description with no English one.
  case coalesce(p_filter ->> 'translation', 'all')
    when 'all' then null;
    when 'missing' then parts.text_conditions := parts.text_conditions ||
      '(btrim(f.name_en) = '''' or f.name_en = f.name_es or (btrim(f.description_es) <> '''' and btrim(f.description_en) = ''''))'::text;
    else raise exception 'Unknown translation filter "%"', p_filter ->> 'translation' using errcode = '22023';
  end case;

  -- Files whose bytes another file already has (files.duplicate_of).
  case coalesce(p_filter ->> 'duplicates', 'all')
    when 'all' then null;
    when 'only' then
      parts.column_conditions := parts.column_conditions || 'f.duplicate_of is not null'::text;
      parts.facets := parts.facets || '@duplicate'::text;
    else raise exception 'Unknown duplicates filter "%"', p_filter ->> 'duplicates' using errcode = '22023';
  end case;

  -- Files whose upload could not be processed ('No se pudo procesar'): waiting to be replaced or delete.
  case coalesce(p_filter ->> 'processing', 'all')
    when 'all' then null;
    when 'failed' then parts.text_conditions := parts.text_conditions ||
      '(not f.processing and f.processing_error is not null)'::text;
    else raise exception 'Unknown processing filter "%"', p_filter ->> 'processing' using errcode = '22023';
  end case;

  -- 'Derechos': expired ('Caducados'), expiring within 30 days, today included ('Caducan en 30 días', the
  -- window of count_rights_expiring_soon), or no author recorded ('Sin autor'). Today is Madrid's (rights_today).
  case coalesce(p_filter ->> 'rights', 'all')
    when 'all' then null;
    when 'expired' then parts.text_conditions := parts.text_conditions ||
      '(f.rights_expire_on < private.rights_today())'::text;
    when 'expiring' then parts.text_conditions := parts.text_conditions ||
      '(f.rights_expire_on >= private.rights_today() and f.rights_expire_on < private.rights_today() + 30)'::text;
    when 'no-creator' then parts.text_conditions := parts.text_conditions ||
      '(btrim(f.rights_creator) = '''')'::text;
    else raise exception 'Unknown rights filter "%"', p_filter ->> 'rights' using errcode = '22023';
  end case;

  parts.tag_id := nullif(p_filter ->> 'tagId', '')::uuid;
  parts.collection_id := nullif(p_filter ->> 'collectionId', '')::uuid;
  return parts;
end
$$;
revoke all on function private.file_filter_parts(jsonb) from public;
grant execute on function private.file_filter_parts(jsonb) to anon, authenticated, service_role;

-- One typed word as a condition over alias `f`: its index terms in the file's index row, or the text holding
-- it (the trigram index finds those) or one of its tags' names doing so.
create function private.search_word_condition(p_word private.search_word)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  tag_ids integer[];
begin
  if p_word.term_ids is not null then
    return format('exists (select 1 from private.file_search s where s.file_id = f.id and %s)',
                  private.search_terms_condition(p_word.term_ids, 's'));
  end if;
  tag_ids := private.search_tag_term_ids(p_word.word);
  return format('(f.search_document like %L%s)', private.contains_pattern(p_word.word),
                case when cardinality(tag_ids) = 0 then ''
                     else format(' or exists (select 1 from private.file_search s where s.file_id = f.id and %s)',
                                 private.search_terms_condition(tag_ids, 's')) end);
end
$$;
revoke all on function private.search_word_condition(private.search_word) from public;
grant execute on function private.search_word_condition(private.search_word) to anon, authenticated, service_role;

-- The whole filter as one WHERE condition over alias `f`: what search, the selection summary and the bulk
-- actions apply. The first form takes a filter parsed already (search_files reads its words' terms once).
create function private.file_filter_condition(p_parts private.file_filter)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  conditions text[] := array['true'];
begin
  conditions := conditions || array(select private.search_word_condition(w) from unnest(p_parts.words) as w)
                           || p_parts.column_conditions || p_parts.text_conditions;
  if p_parts.tag_id is not null then
    conditions := conditions || format(
      'exists (select 1 from public.file_tags ft where ft.file_id = f.id and ft.tag_id = %L::uuid)', p_parts.tag_id);
  end if;
  if p_parts.collection_id is not null then
    conditions := conditions || format(
      'exists (select 1 from public.collection_files cf where cf.file_id = f.id and cf.collection_id = %L::uuid)',
      p_parts.collection_id);
  end if;
  return array_to_string(conditions, ' and ');
end
$$;

create function private.file_filter_condition(p_filter jsonb)
returns text
language sql
stable
set search_path = ''
as $$
  select private.file_filter_condition(private.file_filter_parts(p_filter))
$$;
revoke all on function private.file_filter_condition(private.file_filter), private.file_filter_condition(jsonb)
  from public;
grant execute on function private.file_filter_condition(private.file_filter), private.file_filter_condition(jsonb)
  to anon, authenticated, service_role;

-- Who may read what, decided once per call ------------------------------------------------------------------
-- search_files, count_files and file_selection_summary are security definer with the visibility rule written
-- into the query. Why: `like` (textlike) is not leakproof, so under RLS Postgres must check the policy on
-- every row before it may test the search words, which rules out the trigram index and, with the policy's
-- OR, leaves the planner estimating a handful of rows for any filter (a seq scan of the whole table for a
-- common word: 83 ms at 100k against 41 ms for the same count without RLS). They apply exactly what the
-- policy "Admins read every file and uploaders their own" says, through the same helpers; the tests prove an
-- uploader still finds only their own files and FRONT/OPERATIONS none. An admin's query carries no per-row
-- test at all, so the planner can count from an index alone. The service role reads everything, as its
-- BYPASSRLS does elsewhere.
-- Whose files the caller may read: every file, one uploader's (uploader_id), or none (neither).
create function private.readable_files_scope(out everything boolean, out uploader_id uuid)
language plpgsql
stable
set search_path = ''
as $$
begin
  everything := coalesce(auth.role() = 'service_role' or private.is_admin(), false);
  if not everything and private.is_uploader() then
    uploader_id := auth.uid();
  end if;
end
$$;
revoke all on function private.readable_files_scope() from public;

create function private.readable_files_condition()
returns text
language sql
stable
set search_path = ''
as $$
  select case when r.everything then 'true'
              when r.uploader_id is not null then format('f.uploader_id = %L::uuid', r.uploader_id)
              else 'false' end
    from private.readable_files_scope() r
$$;
revoke all on function private.readable_files_condition() from public;

-- Paging ----------------------------------------------------------------------------------------------------
-- A page asks for the rows after the last one it holds (keyset on (sort key, id)). An offset shifted under
-- the user whenever a file was uploaded or deleted while they scrolled (rows seen twice or never), and grew
-- slower the deeper they went; a keyset page costs the same at row 100 and at row 99,900.
create type public.file_sort as enum (
  'uploadedOn_desc', 'uploadedOn_asc', 'size_desc', 'size_asc', 'nameEs_asc', 'nameEs_desc', 'capturedAt_desc',
  'capturedAt_asc'
);

-- A file without a capture date sorts last both ways: its key is +infinity going up and -infinity going down,
-- so the keyset stays one row comparison and the app's cursor sends that word for such a file. One index per
-- direction, on exactly the expression the ORDER BY uses.
create index files_captured_at_asc_idx on public.files ((coalesce(captured_at, 'infinity'::timestamptz)), id);
create index files_captured_at_desc_idx on public.files ((coalesce(captured_at, '-infinity'::timestamptz)), id);

-- ORDER BY and the keyset condition of one sort.
create function private.file_keyset(p_sort public.file_sort, p_after_key text, p_after_id uuid,
                                    out order_by text, out after text)
language plpgsql
immutable
set search_path = ''
as $$
declare
  key_expression text;
  key_value text;
  descending boolean := p_sort::text like '%\_desc';
begin
  case split_part(p_sort::text, '_', 1)
    when 'uploadedOn' then
      key_expression := 'f.uploaded_on';
      key_value := format('%L::timestamptz', p_after_key);
    when 'size' then
      key_expression := 'f.size';
      key_value := format('%L::bigint', p_after_key);
    when 'nameEs' then
      key_expression := 'private.normalize_search_text(f.name_es)';
      key_value := format('private.normalize_search_text(%L)', p_after_key);
    when 'capturedAt' then
      key_expression := format('coalesce(f.captured_at, %L::timestamptz)',
                               case when descending then '-infinity' else 'infinity' end);
      key_value := format('%L::timestamptz', p_after_key);
  end case;
  order_by := format('%1$s %2$s, f.id %2$s', key_expression, case when descending then 'desc' else 'asc' end);
  if p_after_id is null then
    after := 'true';
  else
    after := format('(%s, f.id) %s (%s, %L::uuid)', key_expression, case when descending then '<' else '>' end,
                    key_value, p_after_id);
  end if;
end
$$;
revoke all on function private.file_keyset(public.file_sort, text, uuid) from public;

-- The RPCs --------------------------------------------------------------------------------------------------
-- Typed so `supabase gen types` types the rows the app selects; the heading's count is its own request
-- (count_files, file_search_bitmaps.sql), run side by side with the first page.

-- The narrow rows of file_search a filter's indexed words (and the columns kept there) allow, as a query over
-- alias f, or null when no word is matched through the index: what search_files reads first for a rare
-- word, and what count_files counts.
create function private.search_candidates_query(p_parts private.file_filter, p_readable text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  word_conditions text[] := private.search_index_tests(p_parts.words, 'f');
begin
  if cardinality(word_conditions) = 0 then
    return null;
  end if;
  return format('select f.file_id from private.file_search f where %s',
                array_to_string(word_conditions || p_parts.column_conditions
                                || case when p_readable = 'true' then '{}'::text[] else array[p_readable] end,
                                ' and '));
end
$$;
revoke all on function private.search_candidates_query(private.file_filter, text) from public;

-- The planner's estimate of how many rows a query returns (EXPLAIN without ANALYZE: nothing is run). Volatile
-- because Postgres refuses EXPLAIN inside a stable function; only search_files calls it, with a query it built.
create function private.estimated_rows(p_query text)
returns float8
language plpgsql
volatile
set search_path = ''
as $$
declare
  plan json;
begin
  execute 'explain (format json) ' || p_query into plan;
  return (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
end
$$;
revoke all on function private.estimated_rows(text) from public, anon, authenticated, service_role;

-- The whole filter over alias `f` as the walk in sort order tests it, one file at a time: the indexed words read
-- the file's index row by its key. Written as EXISTS (file_filter_condition), they let the planner hash a
-- common word's whole posting list before the first file is tested (186k files for 'piscina' at 1M: ~100 ms
-- for a page that ends 600 files deep, instead of ~5).
create function private.search_walk_condition(p_parts private.file_filter)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  index_tests text[] := private.search_index_tests(p_parts.words, 's');
  rest private.file_filter := p_parts;
begin
  if cardinality(index_tests) = 0 then
    return private.file_filter_condition(p_parts);
  end if;
  rest.words := array(select w from unnest(p_parts.words) as w where w.term_ids is null);
  return format('coalesce((select %s from private.file_search s where s.file_id = f.id), false) and %s',
                array_to_string(index_tests, ' and '), private.file_filter_condition(rest));
end
$$;
revoke all on function private.search_walk_condition(private.file_filter) from public;

-- One page: up to p_limit files matching the filters, after the file (p_after_id, with its sort key
-- p_after_key as text) that ended the previous page. Pages are read in sort order, testing each file, which
-- finds a page at once when many files match; when few do (a word in one file of a million), that walk
-- would cross the whole library, so their candidates are read from the search index first instead. The
-- cut-off, √(100 × files), is where both ways cost about the same (~10,000 at 1M files).
-- Which side of it a filter is on: when the planner expects more candidates than that (its statistics of
-- the index's most common terms), the walk is tried first, over at most that many files; only when it
-- comes back short is the number of candidates counted, up to the cut-off. Counting first would build the
-- whole bitmap of a common word's 240k files at 1M before the first file is read (~25 ms a word).
create function public.search_files(
  p_filter jsonb default '{}'::jsonb,
  p_sort public.file_sort default 'uploadedOn_desc',
  p_limit integer default 100,
  p_after_key text default null,
  p_after_id uuid default null
)
returns setof public.files
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  keyset record := private.file_keyset(coalesce(p_sort, 'uploadedOn_desc'), p_after_key, p_after_id);
  readable text := private.readable_files_condition();
  parts private.file_filter := private.file_filter_parts(p_filter);
  condition text := private.file_filter_condition(parts);
  candidates text := private.search_candidates_query(parts, readable);
  few integer;
  found integer;
  walked public.files[];
begin
  if p_limit is null or p_limit < 0 or p_limit > 1000 then
    raise exception 'Page limit must be between 0 and 1000' using errcode = '22023';
  end if;
  if (p_after_id is null) <> (p_after_key is null) then
    raise exception 'A page starts after a file id and its sort key, or at the beginning' using errcode = '22023';
  end if;
  if candidates is not null and readable <> 'false' then
    -- mediateca.search_candidates_limit (tests only) forces one way or the other.
    few := nullif(current_setting('mediateca.search_candidates_limit', true), '')::integer;
    if few is null then
      select greatest(1000, sqrt(100 * greatest(c.reltuples, 0)))::integer into few
        from pg_catalog.pg_class c where c.oid = 'public.files'::regclass;
    end if;
    if private.estimated_rows(candidates) > few then
      execute format(
        'select array(select w.f from (select f, %s as hit from public.files f where %s and %s order by %s limit %s) w
                       where w.hit limit %s)',
        private.search_walk_condition(parts), readable, keyset.after, keyset.order_by, few, p_limit) into walked;
      if cardinality(walked) = p_limit then
        return query select * from unnest(walked);
        return;
      end if;
    end if;
    execute format('select count(*) from (%s limit %s) c', candidates, few + 1) into found;
    if found <= few then
      return query execute format(
        'with candidates as materialized (%s)
         select f.* from candidates c join public.files f on f.id = c.file_id
          where %s and %s and %s order by %s limit %s',
        candidates, readable, condition, keyset.after, keyset.order_by, p_limit);
      return;
    end if;
  end if;
  return query execute format(
    'select f.* from public.files f where %s and %s and %s order by %s limit %s',
    readable, condition, keyset.after, keyset.order_by, p_limit);
end
$$;

revoke all on function public.search_files(jsonb, public.file_sort, integer, text, uuid) from public, anon;
grant execute on function public.search_files(jsonb, public.file_sort, integer, text, uuid) to authenticated, service_role;
