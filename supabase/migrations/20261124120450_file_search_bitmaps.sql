-- The heading's total ('n archivos filtrados') and the summary behind 'Seleccionar todos', counted from
-- bitmaps of the search index instead of the files that match.
--
-- A common word is in a quarter of the library: counting 'piscina' at 1M files from the GIN index visited
-- every one of its ~190k index rows for their visibility (~70 ms, ten times the figure at 100k), and Postgres
-- has no index-only count for GIN; all images, an index-only scan of half the library, grew the same way. So
-- every term of the index (file_search.sql), every tag term and a few facets of a file (every file, its type,
-- status, operations, duplicate, uploader) also keep one bit per file, by the file's slot, in rows of 1,024
-- files. A total is then the OR of each word's terms' rows, ANDed with the other words', the tag's and the
-- facets', and the bits counted: ~1,000 rows of 128 bytes per term of a word at 1M files (~3–6 ms), exact,
-- and in the same transaction as the write that changed them. Trash, tags, renames and uploads all change
-- file_search, whose triggers flip the bits.
--
-- What the bitmaps do not hold (words matched on the text, 'Sin traducir', a collection) is counted as
-- before, from the index and the link tables.

-- One row per term (or facet) and block of 1,024 slots: bit i (from the left) is the file in slot
-- block × 1,024 + i. Rows are never deleted: a block whose files all left keeps a row of zeros. A term's rows
-- are written in block order and each flip is a HOT update that stays on its page (half of each page is
-- left free for them), so a term's ~1,000 rows at 1M files are read from tens of pages, not thousands.
create table private.search_term_blocks (
  term_id integer not null,
  block integer not null,
  files bit(1024) not null,
  primary key (term_id, block)
) with (fillfactor = 50);
alter table private.search_term_blocks enable row level security;
revoke all on private.search_term_blocks from public, anon, authenticated;

-- Facets are vocabulary terms starting with '@', which no text term has (terms are letters and digits) and
-- which the word lookup skips. The fixed ones exist from here on; an uploader's when their first file does.
insert into private.search_terms (term)
values ('@duplicate'), ('@file'), ('@image'), ('@operations'), ('@published');

create function private.search_facet_terms(p_is_image boolean, p_published boolean, p_operations boolean,
                                           p_duplicate_of uuid, p_uploader_id uuid)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array_remove(array[
    '@file',
    case when p_is_image then '@image' end,
    case when p_published then '@published' end,
    case when p_operations then '@operations' end,
    case when p_duplicate_of is not null then '@duplicate' end,
    '@uploader:' || p_uploader_id::text], null)
$$;

-- Index rows that left (p_gone) and came (p_came): every (slot, term) pair in only one of them flips its bit.
-- The bits of a row that left are set and those of one that came are not, so one XOR does both, and a
-- block's first row needs no special case. The rows of a block are shared by 1,024 files, so writers take
-- private.lock_library_counts (files.sql) first: two transactions retagging different files of one block
-- would otherwise each hold a row the other wants next.
create function private.flip_search_bitmaps(p_gone private.file_search[], p_came private.file_search[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if cardinality(p_gone) = 0 and cardinality(p_came) = 0 then
    return;
  end if;
  perform private.lock_library_counts();
  insert into private.search_terms (term)
  select distinct '@uploader:' || c.uploader_id::text
    from unnest(p_came) c where c.uploader_id is not null order by 1
  on conflict (term) do nothing;
  with rows_and_sides as (
    select r, -1 as side from unnest(p_gone) r
    union all
    select r, 1 from unnest(p_came) r
  ), pairs as (
    select (x.r).slot, t.term_id, x.side
      from rows_and_sides x cross join unnest((x.r).term_ids) as t(term_id)
    union all
    select (x.r).slot, st.id, x.side
      from rows_and_sides x
     cross join unnest(private.search_facet_terms((x.r).is_image, (x.r).published, (x.r).operations,
                                                  (x.r).duplicate_of, (x.r).uploader_id)) as ft(term)
      join private.search_terms st on st.term = ft.term
  ), flips as (
    select p.slot, p.term_id from pairs p group by p.slot, p.term_id having sum(p.side) <> 0
  )
  insert into private.search_term_blocks (term_id, block, files)
  select f.term_id, f.slot / 1024, bit_or(set_bit(0::bit(1024), f.slot % 1024, 1))
    from flips f
   group by 1, 2
   order by 1, 2
  on conflict (term_id, block) do update set files = search_term_blocks.files # excluded.files;
end
$$;

create function private.flip_changed_search_bitmaps()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Each operation has only its own transition tables, and a statement naming another fails when planned.
  -- Their rows are anonymous records: row(…)::private.file_search gives them the table's type back.
  if tg_op = 'INSERT' then
    perform private.flip_search_bitmaps('{}', array(select row(n.*)::private.file_search from new_rows n));
  elsif tg_op = 'UPDATE' then
    perform private.flip_search_bitmaps(array(select row(o.*)::private.file_search from old_rows o),
                                        array(select row(n.*)::private.file_search from new_rows n));
  else
    perform private.flip_search_bitmaps(array(select row(o.*)::private.file_search from old_rows o), '{}');
  end if;
  return null;
end
$$;

create trigger file_search_bitmaps_after_insert
  after insert on private.file_search
  referencing new table as new_rows
  for each statement execute function private.flip_changed_search_bitmaps();
create trigger file_search_bitmaps_after_update
  after update on private.file_search
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.flip_changed_search_bitmaps();
create trigger file_search_bitmaps_after_delete
  after delete on private.file_search
  referencing old table as old_rows
  for each statement execute function private.flip_changed_search_bitmaps();

-- The bitmaps again from the whole index, for loads that ran with triggers off (the dataset generator).
-- A hundred blocks at a time, so no step holds a million rows in one array.
create function private.rebuild_search_bitmaps()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  first_block integer;
begin
  truncate private.search_term_blocks;
  for first_block in
    select b from generate_series(0, (select coalesce(max(slot), 0) / 1024 from private.file_search), 100) as b
  loop
    perform private.flip_search_bitmaps('{}', array(
      select s from private.file_search s where s.slot / 1024 between first_block and first_block + 99));
  end loop;
end
$$;

revoke all on function private.search_facet_terms(boolean, boolean, boolean, uuid, uuid),
  private.flip_search_bitmaps(private.file_search[], private.file_search[]), private.flip_changed_search_bitmaps(),
  private.rebuild_search_bitmaps() from public;

-- A filter's total from the bitmaps, as a query, or null when the filter asks what they do not hold: a word
-- matched on the text, a text condition or a collection. Each word is the OR of its terms' rows; the words,
-- the tag, the facets asked for and the caller's uploader facet are ANDed block by block (every file's when
-- none of them is asked); a facet asked against ('-@image': documents) is ANDed as its complement.
create function private.count_from_bitmaps_query(p_parts private.file_filter, p_everything boolean,
                                                 p_uploader_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  sets text[] := '{}';
  absent text[] := '{}';
  facet text;
  word private.search_word;
  term_rows constant text := 'select b.block, %s as files from private.search_term_blocks b where %s';
  facet_row constant text :=
    'b.term_id = (select st.id from private.search_terms st where st.term = %L)';
  joins text := '';
  bits text;
begin
  if cardinality(p_parts.text_conditions) > 0 or p_parts.collection_id is not null
     or exists (select from unnest(p_parts.words) w where w.term_ids is null) then
    return null;
  end if;

  foreach word in array p_parts.words loop
    sets := sets || format(term_rows || ' group by b.block', 'bit_or(b.files)',
                           format('b.term_id = any(%L::integer[])', word.term_ids));
  end loop;
  if p_parts.tag_id is not null then
    sets := sets || format(term_rows, 'b.files', format(facet_row, private.tag_search_term(p_parts.tag_id)));
  end if;
  if not p_everything then
    sets := sets || format(term_rows, 'b.files', format(facet_row, '@uploader:' || p_uploader_id::text));
  end if;
  foreach facet in array p_parts.facets loop
    if facet like '-%' then
      absent := absent || format(term_rows, 'b.files', format(facet_row, substr(facet, 2)));
    else
      sets := sets || format(term_rows, 'b.files', format(facet_row, facet));
    end if;
  end loop;

  if cardinality(sets) = 0 then
    sets := array[format(term_rows, 'b.files', format(facet_row, '@file'))];
  end if;
  bits := 's1.files';
  for i in 2 .. cardinality(sets) loop
    joins := joins || format(' join (%s) s%s using (block)', sets[i], i);
    bits := bits || format(' & s%s.files', i);
  end loop;
  for i in 1 .. cardinality(absent) loop
    joins := joins || format(' left join (%s) a%s using (block)', absent[i], i);
    bits := bits || format(' & ~coalesce(a%s.files, 0::bit(1024))', i);
  end loop;
  return format('select coalesce(sum(bit_count(%s)), 0)::bigint from (%s) s1%s', bits, sets[1], joins);
end
$$;
revoke all on function private.count_from_bitmaps_query(private.file_filter, boolean, uuid) from public;

-- The total from the search index and the link tables, for what the bitmaps do not hold: one scan of
-- file_search for the indexed words (filtering the columns it keeps in the same scan), the tag's and the
-- collection's links, and `files` itself only for conditions on its texts.
create function private.count_from_index_query(p_parts private.file_filter, p_readable text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  -- Over alias f: these read columns file_search keeps; text conditions need the files row itself.
  column_conditions text[] := p_parts.column_conditions;
  text_conditions text[] := p_parts.text_conditions
    || array(select private.search_word_condition(w) from unnest(p_parts.words) as w where w.term_ids is null);
  index_tests text[] := private.search_index_tests(p_parts.words, 's');
  sources text[] := '{}';
  filters text[] := '{}';
begin
  if p_readable <> 'true' then
    column_conditions := p_readable || column_conditions;
  end if;

  -- The words: one scan of file_search, filtering the columns it keeps in the same scan unless the files' texts
  -- are needed anyway. Then the tag's and the collection's links.
  if cardinality(index_tests) > 0 then
    if cardinality(text_conditions) = 0 then
      sources := sources || private.search_candidates_query(p_parts, p_readable);
      column_conditions := '{}';
    else
      sources := sources || format('select s.file_id from private.file_search s where %s',
                                   array_to_string(index_tests, ' and '));
    end if;
  end if;
  if p_parts.tag_id is not null then
    sources := sources || format('select ft.file_id from public.file_tags ft where ft.tag_id = %L::uuid', p_parts.tag_id);
  end if;
  if p_parts.collection_id is not null then
    sources := sources || format('select cf.file_id from public.collection_files cf where cf.collection_id = %L::uuid',
                                 p_parts.collection_id);
  end if;

  if cardinality(sources) = 0 then
    -- Type, status and the other columns alone: counted from files' own (partial) indexes.
    return format('select count(*) from public.files f where %s',
                  coalesce(nullif(array_to_string(column_conditions || text_conditions, ' and '), ''), 'true'));
  end if;
  -- The first source drives; the others (a file has at most one link to a tag or a collection) narrow it.
  for i in 2 .. cardinality(sources) loop
    filters := filters || format('d.file_id in (%s)', sources[i]);
  end loop;
  return format('select count(*) from (%s) d %s %s', sources[1],
                case when cardinality(text_conditions) > 0 then 'join public.files f on f.id = d.file_id'
                     when cardinality(column_conditions) > 0 then 'join private.file_search f on f.file_id = d.file_id'
                     else '' end,
                coalesce('where ' || nullif(array_to_string(filters || column_conditions || text_conditions, ' and '), ''),
                         ''));
end
$$;
revoke all on function private.count_from_index_query(private.file_filter, text) from public;

-- How many files match the filters, as the caller may see them: the heading's 'n archivos filtrados', the
-- same set as search_files pages through. count_files_query builds the statement (the benchmark explains
-- it), count_files runs it.
create function private.count_files_query(p_filter jsonb)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  parts private.file_filter := private.file_filter_parts(p_filter);
  scope record := private.readable_files_scope();
begin
  if not scope.everything and scope.uploader_id is null then
    return 'select 0::bigint';
  end if;
  return coalesce(private.count_from_bitmaps_query(parts, scope.everything, scope.uploader_id),
                  private.count_from_index_query(parts, private.readable_files_condition()));
end
$$;
revoke all on function private.count_files_query(jsonb) from public;

-- work_mem: a common word's bitmap at 3M files (558k rows over 70k pages) outgrows the default 4 MB, turns
-- lossy and has every row of its pages rechecked (443 ms, against ~270 ms exact); 16 MB keeps it exact.
create function public.count_files(p_filter jsonb default '{}'::jsonb)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
set work_mem = '16MB'
as $$
declare
  total bigint;
begin
  execute private.count_files_query(p_filter) into total;
  return total;
end
$$;
revoke all on function public.count_files(jsonb) from public, anon;
grant execute on function public.count_files(jsonb) to authenticated, service_role;

-- Files still being post-processed: an upload's first minutes, so a handful at any size.
create index files_processing_idx on public.files (uploaded_on) where processing;

-- What the selection bar needs for 'Seleccionar todos': how many, how many published, how many cannot be
-- deleted yet, without sending ids to the browser. For a filter the bitmaps hold, the two totals come from
-- them and the files still processing from their own index (reading every filtered row took ~300 ms for a
-- whole 1M library); explicit ids, and the filters they do not hold, are read row by row.
create function public.file_selection_summary(p_filter jsonb default null, p_file_ids uuid[] default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  scope record := private.readable_files_scope();
  parts private.file_filter;
  total_query text;
  total bigint;
  published bigint;
  processing bigint;
  undeletable bigint;
  summary jsonb;
begin
  if p_file_ids is null and (scope.everything or scope.uploader_id is not null) then
    parts := private.file_filter_parts(coalesce(p_filter, '{}'::jsonb));
    total_query := private.count_from_bitmaps_query(parts, scope.everything, scope.uploader_id);
  end if;
  if total_query is null then
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
  end if;
  execute total_query into total;
  parts.facets := parts.facets || '@published'::text;
  execute private.count_from_bitmaps_query(parts, scope.everything, scope.uploader_id) into published;
  execute format(
    'select count(*), count(*) filter (where f.uploaded_on > now() - interval ''1 hour'')
       from public.files f where f.processing and %s and %s',
    private.readable_files_condition(), private.file_filter_condition(parts))
    into processing, undeletable;
  return jsonb_build_object('count', total, 'published', published, 'processing', processing,
                            'undeletable', undeletable);
end
$$;
revoke all on function public.file_selection_summary(jsonb, uuid[]) from public, anon;
grant execute on function public.file_selection_summary(jsonb, uuid[]) to authenticated, service_role;
