-- The academy users filter (spec: 'Filtrar (nombre, correo, etc)'), on the server for 50,000 members: every
-- typed word must appear, accent- and case-insensitively, in the name, e-mail, company, city or country.
-- The unaccented text is a stored generated column with a trigram index, so `like '%word%'` uses the index.

alter table public.academy_users
  add column search_document text not null generated always as (
    private.normalize_search_text(name || ' ' || email || ' ' || company || ' ' || city || ' ' || country)
  ) stored;
create index academy_users_search_document_trgm_idx
  on public.academy_users using gin (search_document extensions.gin_trgm_ops);

-- Security invoker: RLS on academy_users decides who gets rows (admins all, a member only themselves).
-- One `like` per word, written into the statement so the planner can use the trigram index for each; the
-- page is cut here (p_limit, p_offset) because PostgREST would otherwise materialise every member first.
create function public.search_academy_users(p_query text default '', p_limit integer default 100,
                                            p_offset integer default 0)
returns setof public.academy_users
language plpgsql
stable
set search_path = ''
as $$
declare
  v_patterns text[];
  v_sql text := 'select u.* from public.academy_users u where true';
begin
  select coalesce(array_agg('%' || replace(replace(replace(word, '\', '\\'), '%', '\%'), '_', '\_') || '%'), '{}')
    into v_patterns
  from regexp_split_to_table(private.normalize_search_text(btrim(coalesce(p_query, ''))), '\s+') as word
  where word <> '';
  for i in 1 .. coalesce(array_length(v_patterns, 1), 0) loop
    v_sql := v_sql || format(' and u.search_document like $1[%s]', i);
  end loop;
  return query execute v_sql || ' order by u.created_on desc, u.id limit $2 offset $3'
    using v_patterns, least(greatest(coalesce(p_limit, 100), 1), 500), greatest(coalesce(p_offset, 0), 0);
end
$$;
revoke all on function public.search_academy_users(text, integer, integer) from public, anon;
grant execute on function public.search_academy_users(text, integer, integer) to authenticated, service_role;
