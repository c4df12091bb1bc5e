-- One function per multi-row change of the spec, each a single transaction (the original product retried
-- client-side transactions up to 25 times; here Postgres makes them atomic). They run with the caller's
-- rights, so RLS still decides, and they refuse early with a stable code the UI translates:
--   NOT_ADMIN (42501), FILES_PROCESSING (P0001, 'No se pueden borrar archivos en proceso').
-- Bulk file functions take either explicit ids or the files-screen filter object (see
-- private.file_filter_condition) so "select all filtered" never ships 100k ids to the browser.

create function private.require_admin()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only admins may do this' using errcode = '42501', hint = 'NOT_ADMIN';
  end if;
end
$$;
revoke all on function private.require_admin() from public;
grant execute on function private.require_admin() to authenticated, service_role;

-- Ids of the files a bulk action targets, among those the caller can see.
create function private.target_file_ids(p_file_ids uuid[], p_filter jsonb)
returns uuid[]
language plpgsql
stable
set search_path = ''
as $$
declare
  ids uuid[];
begin
  if p_file_ids is null and p_filter is null then
    raise exception 'Give file ids or a filter' using errcode = '22023';
  end if;
  execute format('select coalesce(array_agg(f.id), ''{}'') from public.files f where %s and ($1 is null or f.id = any($1))',
    private.file_filter_condition(coalesce(p_filter, '{}'::jsonb)))
    into ids using p_file_ids;
  return ids;
end
$$;
revoke all on function private.target_file_ids(uuid[], jsonb) from public;
grant execute on function private.target_file_ids(uuid[], jsonb) to authenticated, service_role;

create function public.publish_files(p_published boolean, p_file_ids uuid[] default null, p_filter jsonb default null)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  changed integer;
begin
  perform private.require_admin();
  update public.files set published = p_published
   where id = any(private.target_file_ids(p_file_ids, p_filter)) and published is distinct from p_published;
  get diagnostics changed = row_count;
  return changed;
end
$$;

create function public.delete_files(p_file_ids uuid[] default null, p_filter jsonb default null)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  ids uuid[];
  deleted integer;
begin
  perform private.require_admin();
  ids := private.target_file_ids(p_file_ids, p_filter);
  -- A file whose upload is still being processed may be deleted only once it is over an hour old
  -- (the processing step may have died).
  if exists (select 1 from public.files f
              where f.id = any(ids) and f.processing and f.uploaded_on > now() - interval '1 hour') then
    raise exception 'No se pueden borrar archivos en proceso' using errcode = 'P0001', hint = 'FILES_PROCESSING';
  end if;
  -- Tag and collection links go with the rows (foreign keys cascade); the trash jobs are queued by the
  -- files_queue_trash_jobs trigger in this same transaction.
  delete from public.files where id = any(ids);
  get diagnostics deleted = row_count;
  return deleted;
end
$$;

create function public.set_files_tags(p_tag_ids uuid[], p_file_ids uuid[] default null, p_filter jsonb default null)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  ids uuid[];
begin
  if not private.is_library_staff() then
    raise exception 'Only library staff may tag files' using errcode = '42501', hint = 'NOT_ADMIN';
  end if;
  ids := private.target_file_ids(p_file_ids, p_filter);
  if not private.is_admin() and exists (
       select 1 from unnest(ids) as t(id) where not private.owns_file(t.id)) then
    raise exception 'Uploaders may only tag their own files' using errcode = '42501', hint = 'NOT_ADMIN';
  end if;
  delete from public.file_tags ft
   where ft.file_id = any(ids) and not (ft.tag_id = any(coalesce(p_tag_ids, '{}')));
  insert into public.file_tags (file_id, tag_id)
  select f.id, t.id from unnest(ids) as f(id) cross join unnest(coalesce(p_tag_ids, '{}')) as t(id)
  on conflict do nothing;
  return coalesce(array_length(ids, 1), 0);
end
$$;

create function public.add_files_to_collection(
  p_collection_id uuid,
  p_file_ids uuid[] default null,
  p_filter jsonb default null
)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  added integer;
begin
  perform private.require_admin();
  insert into public.collection_files (collection_id, file_id)
  select p_collection_id, t.id from unnest(private.target_file_ids(p_file_ids, p_filter)) as t(id)
  on conflict do nothing;
  get diagnostics added = row_count;
  return added;
end
$$;

create function public.remove_file_from_collection(p_collection_id uuid, p_file_id uuid)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  perform private.require_admin();
  delete from public.collection_files where collection_id = p_collection_id and file_id = p_file_id;
  return found;
end
$$;

-- The file detail form saves text, options, tags and (admins) collections in one go.
-- p_fields keys: name_es, name_en, description_es, description_en, b2b, panorama, operations.
create function public.update_file(
  p_file_id uuid,
  p_fields jsonb,
  p_tag_ids uuid[],
  p_collection_ids uuid[] default null
)
returns public.files
language plpgsql
set search_path = ''
as $$
declare
  saved public.files;
begin
  update public.files f set
    name_es = coalesce(p_fields ->> 'name_es', f.name_es),
    name_en = coalesce(p_fields ->> 'name_en', f.name_en),
    description_es = coalesce(p_fields ->> 'description_es', f.description_es),
    description_en = coalesce(p_fields ->> 'description_en', f.description_en),
    b2b = coalesce((p_fields ->> 'b2b')::boolean, f.b2b),
    panorama = coalesce((p_fields ->> 'panorama')::boolean, f.panorama),
    operations = coalesce((p_fields ->> 'operations')::boolean, f.operations)
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

create function public.set_academy_video_categories(p_video_id uuid, p_category_ids uuid[])
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform private.require_admin();
  delete from public.academy_video_categories vc
   where vc.video_id = p_video_id and not (vc.category_id = any(coalesce(p_category_ids, '{}')));
  insert into public.academy_video_categories (video_id, category_id)
  select p_video_id, c.id from unnest(coalesce(p_category_ids, '{}')) as c(id) on conflict do nothing;
end
$$;

create function public.set_academy_user_categories(p_user_id uuid, p_category_ids uuid[])
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform private.require_admin();
  if exists (select 1 from public.academy_categories c
              where c.id = any(coalesce(p_category_ids, '{}')) and not c.is_private) then
    raise exception 'Only private categories need to be granted' using errcode = '22023';
  end if;
  delete from public.academy_user_categories uc
   where uc.user_id = p_user_id and not (uc.category_id = any(coalesce(p_category_ids, '{}')));
  insert into public.academy_user_categories (user_id, category_id)
  select p_user_id, c.id from unnest(coalesce(p_category_ids, '{}')) as c(id) on conflict do nothing;
end
$$;

revoke all on function
  public.publish_files(boolean, uuid[], jsonb),
  public.delete_files(uuid[], jsonb),
  public.set_files_tags(uuid[], uuid[], jsonb),
  public.add_files_to_collection(uuid, uuid[], jsonb),
  public.remove_file_from_collection(uuid, uuid),
  public.update_file(uuid, jsonb, uuid[], uuid[]),
  public.set_academy_video_categories(uuid, uuid[]),
  public.set_academy_user_categories(uuid, uuid[])
from public, anon;
grant execute on function
  public.publish_files(boolean, uuid[], jsonb),
  public.delete_files(uuid[], jsonb),
  public.set_files_tags(uuid[], uuid[], jsonb),
  public.add_files_to_collection(uuid, uuid[], jsonb),
  public.remove_file_from_collection(uuid, uuid),
  public.update_file(uuid, jsonb, uuid[], uuid[]),
  public.set_academy_video_categories(uuid, uuid[]),
  public.set_academy_user_categories(uuid, uuid[])
to authenticated, service_role;
