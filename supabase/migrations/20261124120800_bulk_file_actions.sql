-- One function per multi-row change of the files screen, each a single transaction (the original product
-- retried client-side transactions up to 25 times; here Postgres makes them atomic). They run with the
-- caller's rights, so RLS still decides, and they refuse early with a stable code the UI translates:
--   NOT_ADMIN (42501), FILES_PROCESSING (P0001, 'No se pueden borrar archivos en proceso'),
--   FILE_CHANGED (PT409, the detail form's version check), NOT_FOUND (P0002); a refusal of some files by a
--   per-file rule names them in its detail (raise_refused).
-- Bulk functions take either explicit ids or the files-screen filter object (private.file_filter_condition,
-- file_search.sql) so 'Seleccionar todos' never ships 100k ids to the browser.

-- Ids of the files a bulk action targets, among those the caller can see (decided once per call, as search
-- does: file_search.sql). Security definer because the filter's words read the search index; the actions that
-- take these ids still run as the caller, under RLS.
create function private.target_file_ids(p_file_ids uuid[], p_filter jsonb)
returns uuid[]
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  ids uuid[];
begin
  if p_file_ids is null and p_filter is null then
    raise exception 'Give file ids or a filter' using errcode = '22023';
  end if;
  execute format('select coalesce(array_agg(f.id), ''{}'') from public.files f where %s and %s and ($1 is null or f.id = any($1))',
    private.readable_files_condition(), private.file_filter_condition(coalesce(p_filter, '{}'::jsonb)))
    into ids using p_file_ids;
  return ids;
end
$$;
revoke all on function private.target_file_ids(uuid[], jsonb) from public;
grant execute on function private.target_file_ids(uuid[], jsonb) to authenticated, service_role;

-- Files of a bulk action that a per-file rule refuses, with why (the rule's hint), at most 20 of them by name:
-- the refusal names them and the UI offers to go on with the others. Raised as the rule's own error (P0001,
-- the first file's reason as hint, so callers matching those keep working), the list as JSON in the detail:
-- {"count": n, "files": [{"id", "name", "reason"}, ...]}.
create function private.raise_refused(p_refused jsonb, p_message text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception '%', p_message using errcode = 'P0001', hint = p_refused -> 'files' -> 0 ->> 'reason',
    detail = p_refused::text;
end
$$;
revoke all on function private.raise_refused(jsonb, text) from public;
grant execute on function private.raise_refused(jsonb, text) to authenticated, service_role;

-- Activar refuses a file whose rights expired (file_rights_and_metadata.sql) or that could not be processed
-- (processing_failures.sql). Their triggers stop the statement at the first such row, so the files are judged
-- here first, all of them, to name them. p_skip_refused publishes the others ('Activar los demás').
create function public.publish_files(p_published boolean, p_file_ids uuid[] default null, p_filter jsonb default null,
                                     p_skip_refused boolean default false)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  ids uuid[];
  refused jsonb;
  refused_ids uuid[] := '{}';
  changed integer;
begin
  perform private.require_admin();
  ids := private.target_file_ids(p_file_ids, p_filter);
  if p_published then
    select jsonb_build_object('count', count(*),
             'files', coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'name', r.name_es, 'reason', r.reason)
                                         order by r.n) filter (where r.n <= 20), '[]'::jsonb)),
           coalesce(array_agg(r.id), '{}')
      into refused, refused_ids
      from (select f.id, f.name_es, row_number() over (order by f.name_es, f.id) as n,
                   case when private.rights_expired(f.rights_expire_on) then 'RIGHTS_EXPIRED'
                        else 'FILE_PROCESSING_FAILED' end as reason
              from public.files f
             where f.id = any(ids) and not f.published
               and (private.rights_expired(f.rights_expire_on)
                    or (not f.processing and f.processing_error is not null))) r;
    if cardinality(refused_ids) > 0 and not p_skip_refused then
      -- The sentences of the rules' own triggers, which a caller may show as they are.
      perform private.raise_refused(refused, case refused -> 'files' -> 0 ->> 'reason'
        when 'RIGHTS_EXPIRED' then 'No se pueden publicar archivos con los derechos caducados'
        else format('No se puede publicar «%s» porque no se pudo procesar. Sustituye el archivo para poder publicarlo.',
                    refused -> 'files' -> 0 ->> 'name') end);
    end if;
  end if;
  update public.files set published = p_published
   where id = any(ids) and not (id = any(refused_ids)) and published is distinct from p_published;
  get diagnostics changed = row_count;
  return changed;
end
$$;

-- To the Papelera (trash.sql), with their tags and collection links.
create function public.delete_files(p_file_ids uuid[] default null, p_filter jsonb default null,
                                    p_skip_refused boolean default false)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  ids uuid[];
  refused jsonb;
  refused_ids uuid[];
  deleted integer;
begin
  perform private.require_admin();
  ids := private.target_file_ids(p_file_ids, p_filter);
  -- A file whose upload is still being processed may be deleted only once it is over an hour old
  -- (the processing step may have died). Named in the refusal; p_skip_refused deletes the others.
  select jsonb_build_object('count', count(*),
           'files', coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'name', r.name_es, 'reason', 'FILES_PROCESSING')
                                       order by r.n) filter (where r.n <= 20), '[]'::jsonb)),
         coalesce(array_agg(r.id), '{}')
    into refused, refused_ids
    from (select f.id, f.name_es, row_number() over (order by f.name_es, f.id) as n
            from public.files f
           where f.id = any(ids) and f.processing and f.uploaded_on > now() - interval '1 hour') r;
  if cardinality(refused_ids) > 0 then
    if not p_skip_refused then
      perform private.raise_refused(refused, 'No se pueden borrar archivos en proceso');
    end if;
    ids := array(select t.id from unnest(ids) as t(id) where not (t.id = any(refused_ids)));
  end if;
  -- Tag and collection links go with the rows (foreign keys cascade); the trash jobs are queued by the
  -- files_queue_trash_jobs trigger in this same transaction.
  delete from public.files where id = any(ids);
  get diagnostics deleted = row_count;
  return deleted;
end
$$;

-- The files a tag change targets, checked and locked. Staff only, and an uploader only their own files. Locked
-- first, in id order: each call deletes and inserts its files' tag links in whatever order the scans meet them,
-- so two people tagging overlapping selections at once could each wait for a link the other had just written (a
-- deadlock the 50-person load benchmark found). Locked first, overlapping calls take turns, as the detail form's
-- update_file does with its one file; calls on disjoint files still run side by side.
create function private.lock_taggable_files(p_file_ids uuid[], p_filter jsonb)
returns uuid[]
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
  perform 1 from public.files f where f.id = any(ids) order by f.id for no key update;
  return ids;
end
$$;
revoke all on function private.lock_taggable_files(uuid[], jsonb) from public;
grant execute on function private.lock_taggable_files(uuid[], jsonb) to authenticated, service_role;

-- Replaces the tags of the targeted files with exactly p_tag_ids ('Editar tags').
create function public.set_files_tags(p_tag_ids uuid[], p_file_ids uuid[] default null,
                                      p_filter jsonb default null)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  ids uuid[];
begin
  ids := private.lock_taggable_files(p_file_ids, p_filter);
  delete from public.file_tags ft
   where ft.file_id = any(ids) and not (ft.tag_id = any(coalesce(p_tag_ids, '{}')));
  insert into public.file_tags (file_id, tag_id)
  select f.id, t.id from unnest(ids) as f(id) cross join unnest(coalesce(p_tag_ids, '{}')) as t(id)
  order by 1, 2
  on conflict do nothing;
  return coalesce(array_length(ids, 1), 0);
end
$$;

-- 'Añadir etiquetas': gives every targeted file the tags p_tag_ids, keeping the ones it has. Returns how many
-- files were targeted (a file that already had them counts: it has them now).
create function public.add_files_tags(p_tag_ids uuid[], p_file_ids uuid[] default null, p_filter jsonb default null)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  ids uuid[];
begin
  ids := private.lock_taggable_files(p_file_ids, p_filter);
  insert into public.file_tags (file_id, tag_id)
  select f.id, t.id from unnest(ids) as f(id) cross join unnest(coalesce(p_tag_ids, '{}')) as t(id)
  order by 1, 2
  on conflict do nothing;
  return coalesce(array_length(ids, 1), 0);
end
$$;

-- 'Quitar etiquetas': takes the tags p_tag_ids away from every targeted file, leaving its other tags.
create function public.remove_files_tags(p_tag_ids uuid[], p_file_ids uuid[] default null,
                                         p_filter jsonb default null)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  ids uuid[];
begin
  ids := private.lock_taggable_files(p_file_ids, p_filter);
  delete from public.file_tags ft where ft.file_id = any(ids) and ft.tag_id = any(coalesce(p_tag_ids, '{}'));
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

-- The file detail form's save: text, options, tags and (admins) collections in one go, one typed argument
-- per field so `supabase gen types` tells the app every name and type (a null keeps the stored value).
-- No lost update: the form sends the version it read (the row's updated_at) and the tags and
-- collections it showed; when any of them changed since, the save is refused with FILE_CHANGED and nothing
-- is written, and the form shows both versions. Tags and collections are compared as sets rather than
-- stamped on the file row: a bulk tag edit of 100k files must not rewrite 100k rows to bump a version.
-- p_save_rights: the form sends its whole 'Derechos' section; the seven rights columns are then written as
-- given (a null text as empty, a null licence, date or release as "not stated"). Without it they are left
-- alone, so scripts keep working. Who may change the expiry date is the trigger's business
-- (file_rights_and_metadata.sql).
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
  p_expected_collection_ids uuid[] default null,
  p_save_rights boolean default false,
  p_rights_creator text default null,
  p_rights_credit text default null,
  p_rights_copyright text default null,
  p_rights_license public.file_license default null,
  p_rights_usage_terms text default null,
  p_rights_expire_on date default null,
  p_rights_release public.file_release default null
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
    operations = coalesce(p_operations, f.operations),
    rights_creator = case when p_save_rights then coalesce(p_rights_creator, '') else f.rights_creator end,
    rights_credit = case when p_save_rights then coalesce(p_rights_credit, '') else f.rights_credit end,
    rights_copyright = case when p_save_rights then coalesce(p_rights_copyright, '') else f.rights_copyright end,
    rights_license = case when p_save_rights then p_rights_license else f.rights_license end,
    rights_usage_terms = case when p_save_rights then coalesce(p_rights_usage_terms, '') else f.rights_usage_terms end,
    rights_expire_on = case when p_save_rights then p_rights_expire_on else f.rights_expire_on end,
    rights_release = case when p_save_rights then p_rights_release else f.rights_release end
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

-- 'Descargar ZIP' of a selection: the files-zip function pages through what the caller may read of it
-- (explicit ids or every file the filters match). Security invoker, so RLS decides: an uploader's ZIP holds
-- only their own files, whatever ids are sent. Keyset pages by id keep each call small.
create function public.zip_file_entries(
  p_file_ids uuid[] default null,
  p_filter jsonb default null,
  p_after uuid default null,
  p_limit integer default 500
)
returns table (id uuid, object_path text, original_file_name text, size bigint, uploaded_on timestamptz)
language sql
stable
set search_path = ''
as $$
  select f.id, f.object_path, f.original_file_name, f.size, f.uploaded_on
    from public.files f
   where f.id = any(private.target_file_ids(p_file_ids, p_filter))
     and (p_after is null or f.id > p_after)
   order by f.id
   limit least(greatest(p_limit, 1), 1000)
$$;

revoke all on function
  public.publish_files(boolean, uuid[], jsonb, boolean),
  public.delete_files(uuid[], jsonb, boolean),
  public.set_files_tags(uuid[], uuid[], jsonb),
  public.add_files_tags(uuid[], uuid[], jsonb),
  public.remove_files_tags(uuid[], uuid[], jsonb),
  public.add_files_to_collection(uuid, uuid[], jsonb),
  public.remove_file_from_collection(uuid, uuid),
  public.update_file(uuid, uuid[], text, text, text, text, boolean, boolean, boolean, uuid[], timestamptz, uuid[],
                     uuid[], boolean, text, text, text, public.file_license, text, date, public.file_release)
from public, anon;
revoke all on function public.zip_file_entries(uuid[], jsonb, uuid, integer) from public;
grant execute on function
  public.publish_files(boolean, uuid[], jsonb, boolean),
  public.delete_files(uuid[], jsonb, boolean),
  public.set_files_tags(uuid[], uuid[], jsonb),
  public.add_files_tags(uuid[], uuid[], jsonb),
  public.remove_files_tags(uuid[], uuid[], jsonb),
  public.add_files_to_collection(uuid, uuid[], jsonb),
  public.remove_file_from_collection(uuid, uuid),
  public.update_file(uuid, uuid[], text, text, text, text, boolean, boolean, boolean, uuid[], timestamptz, uuid[],
                     uuid[], boolean, text, text, text, public.file_license, text, date, public.file_release),
  public.zip_file_entries(uuid[], jsonb, uuid, integer)
to authenticated, service_role;
