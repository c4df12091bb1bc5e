-- Historial: every change to a file — texts, options and rights, publication, replacement, tags,
-- collections, deletion, restore — is recorded by the database itself, whoever made it (the app, a script,
-- SQL), as who, when, what and old → new. Append-only: no API role may insert, change or delete a row; the
-- triggers (security definer) are the only writers. Admins read every file's history, uploaders their own
-- files'. Statement-level triggers with transition tables: a bulk change of 100k files is one insert.
-- A restore (restore_files, trash.sql) is one 'restored' row, not 'created' plus one per tag/collection:
-- while it runs the trashed rows are marked `restoring`, which these triggers read.

create table public.file_history (
  id bigint generated always as identity primary key,
  file_id uuid not null,
  changed_at timestamptz not null default now(),
  changed_by uuid default auth.uid(),
  changed_by_email text,
  action text not null,
  changes jsonb not null default '{}'::jsonb,
  constraint file_history_action_check
    check (action in ('created', 'edited', 'published', 'unpublished', 'replaced', 'tagged', 'untagged',
                      'added_to_collection', 'removed_from_collection', 'deleted', 'restored'))
);

comment on table public.file_history is
  'Append-only record of changes to files, written by triggers; read by admins and by uploaders for their own files.';

create index file_history_file_idx on public.file_history (file_id, changed_at desc, id desc);

alter table public.file_history enable row level security;

create policy "Admins read every file's history and uploaders that of their own files" on public.file_history
  for select to authenticated
  using (
    (select private.is_admin())
    or ((select private.is_uploader())
        and exists (select 1 from public.files f where f.id = file_id and f.uploader_id = (select auth.uid())))
  );

-- Supabase's default privileges grant every API role everything on new tables: take it all back, then
-- give reading only. The service role too: it bypasses RLS, so privileges are what keep it append-only.
revoke all on public.file_history from anon, authenticated, service_role;
grant select on public.file_history to authenticated, service_role;

create function private.record_file_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  tracked constant text[] := array['name_es', 'name_en', 'description_es', 'description_en', 'b2b', 'panorama',
                                   'operations', 'rights_creator', 'rights_credit', 'rights_copyright',
                                   'rights_license', 'rights_usage_terms', 'rights_expire_on', 'rights_release'];
  actor_email text := private.current_actor_email();
begin
  if tg_op = 'INSERT' then
    -- A restored file (restore_files) is recorded as restored, not as a new upload.
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select n.id, actor_email,
           case when t.file_id is null then 'created' else 'restored' end,
           case when t.file_id is null then jsonb_build_object('original_file_name', n.original_file_name)
                else jsonb_build_object('name_es', n.name_es) end
      from new_files n
      left join public.trashed_files t on t.file_id = n.id and t.restoring;
  elsif tg_op = 'DELETE' then
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select o.id, actor_email, 'deleted', jsonb_build_object('name_es', o.name_es) from old_files o;
  else
    -- Texts and options: one row per file with every changed field as {old, new}.
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select n.id, actor_email, 'edited', d.changes
      from new_files n
      join old_files o on o.id = n.id
      cross join lateral (
        select jsonb_object_agg(key, jsonb_build_object('old', to_jsonb(o) -> key, 'new', to_jsonb(n) -> key)) as changes
          from unnest(tracked) as key
         where to_jsonb(o) -> key is distinct from to_jsonb(n) -> key
      ) d
     where d.changes is not null;
    insert into public.file_history (file_id, changed_by_email, action)
    select n.id, actor_email, case when n.published then 'published' else 'unpublished' end
      from new_files n join old_files o on o.id = n.id
     where n.published is distinct from o.published;
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select n.id, actor_email, 'replaced',
           jsonb_build_object('old', o.original_file_name, 'new', n.original_file_name)
      from new_files n join old_files o on o.id = n.id
     where n.object_path is distinct from o.object_path;
  end if;
  return null;
end
$$;

create function private.record_file_tag_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select n.file_id, private.current_actor_email(), 'tagged', jsonb_build_object('tag', t.name_es)
      from new_links n join public.tags t on t.id = n.tag_id
     -- A restore brings its tags back with it: recorded once, as restored.
     where not exists (select 1 from public.trashed_files r where r.file_id = n.file_id and r.restoring);
  else
    -- A file deleted with its tags is recorded once, as deleted.
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select o.file_id, private.current_actor_email(), 'untagged', jsonb_build_object('tag', t.name_es)
      from old_links o join public.tags t on t.id = o.tag_id
     where exists (select 1 from public.files f where f.id = o.file_id);
  end if;
  return null;
end
$$;

create function private.record_collection_file_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select n.file_id, private.current_actor_email(), 'added_to_collection', jsonb_build_object('collection', c.name)
      from new_links n join public.collections c on c.id = n.collection_id
     where not exists (select 1 from public.trashed_files r where r.file_id = n.file_id and r.restoring);
  else
    insert into public.file_history (file_id, changed_by_email, action, changes)
    select o.file_id, private.current_actor_email(), 'removed_from_collection',
           jsonb_build_object('collection', c.name)
      from old_links o join public.collections c on c.id = o.collection_id
     where exists (select 1 from public.files f where f.id = o.file_id);
  end if;
  return null;
end
$$;

revoke all on function private.record_file_changes(), private.record_file_tag_changes(),
  private.record_collection_file_changes() from public;

create trigger files_history_insert after insert on public.files
  referencing new table as new_files for each statement execute function private.record_file_changes();
create trigger files_history_update after update on public.files
  referencing old table as old_files new table as new_files
  for each statement execute function private.record_file_changes();
create trigger files_history_delete after delete on public.files
  referencing old table as old_files for each statement execute function private.record_file_changes();

create trigger file_tags_history_insert after insert on public.file_tags
  referencing new table as new_links for each statement execute function private.record_file_tag_changes();
create trigger file_tags_history_delete after delete on public.file_tags
  referencing old table as old_links for each statement execute function private.record_file_tag_changes();

create trigger collection_files_history_insert after insert on public.collection_files
  referencing new table as new_links
  for each statement execute function private.record_collection_file_changes();
create trigger collection_files_history_delete after delete on public.collection_files
  referencing old table as old_links
  for each statement execute function private.record_collection_file_changes();
