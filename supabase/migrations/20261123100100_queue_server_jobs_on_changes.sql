-- What queues server jobs, always in the transaction of the change itself (so a change committed from the
-- app, a script, SQL or another client gets its follow-up work, and a rolled back one gets none):
--   * a new file still `processing`, or a file whose object was replaced → post-processing of that file;
--   * anything that changes what the public feed shows → one feed regeneration (coalesced);
--   * new trash jobs (deleted files, replaced objects) → one run of the trash mover (coalesced).
-- Statement-level triggers with transition tables: a bulk change of 500 rows queues once, not 500 times.

-- Post-processing ------------------------------------------------------------------------------------

create function private.queue_processing_of_file()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.queue_server_job('process_upload', 'process_upload:' || new.id, new.id);
  return null;
end
$$;
revoke all on function private.queue_processing_of_file() from public;

create trigger files_queue_processing_of_new_file
  after insert on public.files
  for each row
  when (new.processing)
  execute function private.queue_processing_of_file();

create trigger files_queue_processing_of_replaced_object
  after update of object_path, processing on public.files
  for each row
  when (new.processing and (old.object_path is distinct from new.object_path or not old.processing))
  execute function private.queue_processing_of_file();

-- The public feed ------------------------------------------------------------------------------------
-- A short delay lets a burst of separate statements (an admin ticking several boxes) share one run.

create function private.queue_feed_regeneration()
returns void
language sql
security definer
set search_path = ''
as $$
  select private.queue_server_job('regenerate_feed', 'regenerate_feed', null, interval '2 seconds')
$$;
revoke all on function private.queue_feed_regeneration() from public;

create function private.queue_feed_after_file_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  affects_feed boolean;
begin
  if tg_op = 'INSERT' then
    select exists (select 1 from new_rows where published) into affects_feed;
  elsif tg_op = 'DELETE' then
    select exists (select 1 from old_rows where published) into affects_feed;
  else
    select exists (select 1 from new_rows n join old_rows o on o.id = n.id where n.published or o.published)
      into affects_feed;
  end if;
  if affects_feed then
    perform private.queue_feed_regeneration();
  end if;
  return null;
end
$$;
revoke all on function private.queue_feed_after_file_changes() from public;

create trigger files_queue_feed_after_insert
  after insert on public.files referencing new table as new_rows
  for each statement execute function private.queue_feed_after_file_changes();
create trigger files_queue_feed_after_update
  after update on public.files referencing old table as old_rows new table as new_rows
  for each statement execute function private.queue_feed_after_file_changes();
create trigger files_queue_feed_after_delete
  after delete on public.files referencing old table as old_rows
  for each statement execute function private.queue_feed_after_file_changes();

-- Tag and collection links matter to the feed only for published files.
create function private.queue_feed_after_link_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  affects_feed boolean;
begin
  if tg_op = 'INSERT' then
    select exists (select 1 from new_rows l join public.files f on f.id = l.file_id where f.published)
      into affects_feed;
  else
    -- After a cascade from a deleted file the file is gone; its own delete trigger queued the feed.
    select exists (select 1 from old_rows l join public.files f on f.id = l.file_id where f.published)
      into affects_feed;
  end if;
  if affects_feed then
    perform private.queue_feed_regeneration();
  end if;
  return null;
end
$$;
revoke all on function private.queue_feed_after_link_changes() from public;

create trigger file_tags_queue_feed_after_insert
  after insert on public.file_tags referencing new table as new_rows
  for each statement execute function private.queue_feed_after_link_changes();
create trigger file_tags_queue_feed_after_delete
  after delete on public.file_tags referencing old table as old_rows
  for each statement execute function private.queue_feed_after_link_changes();
create trigger collection_files_queue_feed_after_insert
  after insert on public.collection_files referencing new table as new_rows
  for each statement execute function private.queue_feed_after_link_changes();
create trigger collection_files_queue_feed_after_delete
  after delete on public.collection_files referencing old table as old_rows
  for each statement execute function private.queue_feed_after_link_changes();

-- Tag, category and collection names and visibility appear in the feed of every file that uses them.
create function private.queue_feed_after_catalogue_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.queue_feed_regeneration();
  return null;
end
$$;
revoke all on function private.queue_feed_after_catalogue_changes() from public;

create trigger tags_queue_feed
  after insert or update or delete on public.tags
  for each statement execute function private.queue_feed_after_catalogue_changes();
create trigger tag_categories_queue_feed
  after insert or update or delete on public.tag_categories
  for each statement execute function private.queue_feed_after_catalogue_changes();
create trigger collections_queue_feed
  after insert or update or delete on public.collections
  for each statement execute function private.queue_feed_after_catalogue_changes();

-- The trash ------------------------------------------------------------------------------------------

create function private.queue_trash_run()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.queue_server_job('trash_objects', 'trash_objects');
  return null;
end
$$;
revoke all on function private.queue_trash_run() from public;

create trigger trash_jobs_queue_trash_run
  after insert on public.trash_jobs
  for each statement execute function private.queue_trash_run();
