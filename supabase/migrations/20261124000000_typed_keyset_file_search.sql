-- The files screen's search as typed RPCs (issue 14): `search_files` returns rows of public.files (so
-- `supabase gen types` types them and the app selects the columns it shows), pages by keyset on
-- (sort key, id) instead of an offset, and takes the sort as an enum; `count_files` reads the total on
-- its own, so the heading's count and the first page are two requests the app runs side by side.
--
-- Keyset paging: a page asks for the rows after the last one it holds. An offset shifted under the user
-- whenever a file was uploaded or deleted while they scrolled (rows seen twice or never), and grew slower
-- the deeper they went; a keyset page costs the same at row 100 and at row 99,900.
--
-- Why security definer, with the visibility rule written in the query: `like` (textlike) is not
-- leakproof, so under RLS Postgres must check the policy on every row before it may test the search words,
-- which rules out the trigram index and, with the policy's OR, leaves the planner estimating a handful of
-- rows for any filter (a seq scan of the whole table for a common word: 83 ms at 100k against 41 ms
-- for the same count without RLS). Both functions therefore run as their owner and apply exactly what the
-- policy "Admins read every file and uploaders their own" says, through the same helpers; the tests prove
-- an uploader still finds only their own files and FRONT/OPERATIONS none.

create type public.file_sort as enum (
  'uploadedOn_desc', 'uploadedOn_asc', 'size_desc', 'size_asc', 'nameEs_asc', 'nameEs_desc'
);

-- The policy's rule for the person calling, as a condition on alias f for the two functions below: decided
-- once per call, so an admin's query carries no per-row test at all and the planner can count from an
-- index alone. The service role reads everything, as its BYPASSRLS does elsewhere.
create function private.readable_files_condition()
returns text
language plpgsql
stable
set search_path = ''
as $$
begin
  if auth.role() = 'service_role' or private.is_admin() then
    return 'true';
  elsif private.is_uploader() then
    return format('f.uploader_id = %L::uuid', auth.uid());
  end if;
  return 'false';
end
$$;
revoke all on function private.readable_files_condition() from public;

-- ORDER BY and the keyset condition of one sort. Both columns sort the same way, so one btree on
-- (key, id) serves either direction and the row comparison `(key, id) < (…)` is an index condition.
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

drop function public.search_files(jsonb, text, integer, integer);
drop function private.file_sort_clause(text);

-- One page of the files screen: up to p_limit files matching the filters (see private.file_filter_condition),
-- after the file (p_after_id, with its sort key p_after_key as text) that ended the previous page.
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
begin
  if p_limit is null or p_limit < 0 or p_limit > 1000 then
    raise exception 'Page limit must be between 0 and 1000' using errcode = '22023';
  end if;
  if (p_after_id is null) <> (p_after_key is null) then
    raise exception 'A page starts after a file id and its sort key, or at the beginning' using errcode = '22023';
  end if;
  return query execute format(
    'select f.* from public.files f where %s and %s and %s order by %s limit %s',
    private.readable_files_condition(), private.file_filter_condition(p_filter), keyset.after, keyset.order_by,
    p_limit);
end
$$;

-- How many files match the filters, as the caller may see them: the heading's 'n archivos filtrados'.
create function public.count_files(p_filter jsonb default '{}'::jsonb)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  total bigint;
begin
  execute format('select count(*) from public.files f where %s and %s',
                 private.readable_files_condition(), private.file_filter_condition(p_filter))
    into total;
  return total;
end
$$;

revoke all on function public.search_files(jsonb, public.file_sort, integer, text, uuid),
  public.count_files(jsonb) from public, anon;
grant execute on function public.search_files(jsonb, public.file_sort, integer, text, uuid),
  public.count_files(jsonb) to authenticated, service_role;

-- Sort and keyset indexes with the key and the id in the same direction (the old uploaded_on index had
-- `uploaded_on desc, id asc`, which a keyset on (uploaded_on, id) cannot use), and partial ones for the
-- type filter, which no index served: counting images read the whole table.
create index files_uploaded_on_id_idx on public.files (uploaded_on, id);
drop index public.files_uploaded_on_idx;
create index files_images_uploaded_on_idx on public.files (uploaded_on, id) where is_image;
create index files_documents_uploaded_on_idx on public.files (uploaded_on, id) where not is_image;
