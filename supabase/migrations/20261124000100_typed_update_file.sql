-- update_file with one typed argument per field (issue 14) instead of a `p_fields jsonb` the app had to
-- build and the database to pick apart: `supabase gen types` now tells the app every field's name and type,
-- and a misspelt field is a PostgREST "function not found" instead of a silently ignored key. A null
-- argument keeps the stored value, as an absent key did. The rules are those of
-- 20261123150000_update_file_without_lost_updates.sql: the version check, tags through set_files_tags,
-- collections for admins only, the write-rules trigger deciding what an uploader may change.
drop function public.update_file(uuid, jsonb, uuid[], uuid[], timestamptz, uuid[], uuid[]);

create function public.update_file(
  p_file_id uuid,
  p_tag_ids uuid[],
  p_name_es text default null,
  p_name_en text default null,
  p_description_es text default null,
  p_description_en text default null,
  p_b2b boolean default null,
  p_panorama boolean default null,
  p_operations boolean default null,
  p_collection_ids uuid[] default null,
  p_expected_updated_at timestamptz default null,
  p_expected_tag_ids uuid[] default null,
  p_expected_collection_ids uuid[] default null
)
returns public.files
language plpgsql
set search_path = ''
as $$
declare
  saved public.files;
  current_version timestamptz;
begin
  -- The row lock orders concurrent saves of one file: the second one sees the first one's version.
  select f.updated_at into current_version from public.files f where f.id = p_file_id for update;
  if not found then
    raise exception 'File not found' using errcode = 'P0002', hint = 'NOT_FOUND';
  end if;
  -- A null expectation skips that check (scripts and tests that mean to overwrite); the form sends all.
  if (p_expected_updated_at is not null and current_version is distinct from p_expected_updated_at)
     or (p_expected_tag_ids is not null and array(
           select ft.tag_id from public.file_tags ft where ft.file_id = p_file_id order by 1
         ) is distinct from array(select distinct t from unnest(p_expected_tag_ids) t order by 1))
     or (p_expected_collection_ids is not null and array(
           select cf.collection_id from public.collection_files cf where cf.file_id = p_file_id order by 1
         ) is distinct from array(select distinct c from unnest(p_expected_collection_ids) c order by 1)) then
    -- PT409: PostgREST answers HTTP 409 Conflict. Not 40001, which PostgREST retries forever as a
    -- serialization failure.
    raise exception 'Otra persona ha cambiado este archivo' using errcode = 'PT409', hint = 'FILE_CHANGED';
  end if;

  update public.files f set
    name_es = coalesce(p_name_es, f.name_es),
    name_en = coalesce(p_name_en, f.name_en),
    description_es = coalesce(p_description_es, f.description_es),
    description_en = coalesce(p_description_en, f.description_en),
    b2b = coalesce(p_b2b, f.b2b),
    panorama = coalesce(p_panorama, f.panorama),
    operations = coalesce(p_operations, f.operations)
   where f.id = p_file_id
  returning * into saved;
  if saved.id is null then
    raise exception 'File not found' using errcode = 'P0002', hint = 'NOT_FOUND';
  end if;
  perform public.set_files_tags(p_tag_ids, array[p_file_id]);
  if p_collection_ids is not null then
    perform private.require_admin();
    delete from public.collection_files cf
     where cf.file_id = p_file_id and not (cf.collection_id = any(p_collection_ids));
    insert into public.collection_files (collection_id, file_id)
    select c.id, p_file_id from unnest(p_collection_ids) as c(id) on conflict do nothing;
  end if;
  select * into saved from public.files f where f.id = p_file_id;
  return saved;
end
$$;

revoke all on function public.update_file(uuid, uuid[], text, text, text, text, boolean, boolean, boolean,
  uuid[], timestamptz, uuid[], uuid[]) from public, anon;
grant execute on function public.update_file(uuid, uuid[], text, text, text, text, boolean, boolean, boolean,
  uuid[], timestamptz, uuid[], uuid[]) to authenticated, service_role;
