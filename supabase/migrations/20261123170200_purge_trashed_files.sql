-- The Papelera keeps a deleted file for 30 days (issue 21). Then, or at once on 'Borrar definitivamente',
-- its trashed row goes and every object of the file in the `trash` bucket (the one it had when deleted and
-- those replaced before) is removed by the trash mover, as `remove` trash jobs.
--
-- The 30 days are kept by the server job queue, not by a browser: trashing a file queues one `purge_trash`
-- job due 30 days later (coalesced: the earliest pending one stays); when it runs it purges whatever has
-- expired by then and queues itself again for the next file to expire. On hosted Supabase pg_cron kicks
-- run-jobs when it is due; locally the stack's worker polls.

alter table public.server_jobs drop constraint server_jobs_kind_check;
alter table public.server_jobs add constraint server_jobs_kind_check
  check (kind in ('process_upload', 'regenerate_feed', 'trash_objects', 'purge_trash'));

create function private.trash_retention()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '30 days'
$$;
revoke all on function private.trash_retention() from public;
grant execute on function private.trash_retention() to authenticated, service_role;

-- Forgets trashed files for good: their rows, and (by trash jobs) their objects in the trash bucket.
create function private.forget_trashed_files(p_file_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  forgotten uuid[];
begin
  with gone as (
    delete from public.trashed_files t where t.file_id = any(p_file_ids) returning t.file_id, t.object_path
  )
  select coalesce(array_agg(file_id), '{}') into forgotten from gone;
  insert into public.trash_jobs (file_id, bucket_id, object_path, trash_bucket_id, trash_path, deleted_by, action)
  select distinct on (j.trash_path) j.file_id, 'trash', j.trash_path, 'trash', j.trash_path, auth.uid(), 'remove'
    from public.trash_jobs j
   where j.file_id = any(forgotten) and j.action = 'move' and j.trash_bucket_id = 'trash'
   order by j.trash_path, j.id;
  return coalesce(array_length(forgotten, 1), 0);
end
$$;
revoke all on function private.forget_trashed_files(uuid[]) from public;

-- 'Borrar definitivamente' (admins).
create function public.purge_trashed_files(p_file_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.forget_trashed_files(coalesce(p_file_ids, '{}'));
end
$$;
revoke all on function public.purge_trashed_files(uuid[]) from public, anon;
grant execute on function public.purge_trashed_files(uuid[]) to authenticated, service_role;

-- The purge_trash job's work (run-jobs, service role): files trashed more than 30 days ago.
create function public.purge_expired_trash()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  purged integer;
  next_expiry timestamptz;
begin
  purged := private.forget_trashed_files(array(
    select t.file_id from public.trashed_files t where t.deleted_at <= now() - private.trash_retention()));
  select min(t.deleted_at) + private.trash_retention() into next_expiry from public.trashed_files t;
  if next_expiry is not null then
    perform private.queue_server_job('purge_trash', 'purge_trash', null, greatest(next_expiry - now(), interval '0 seconds'));
  end if;
  return purged;
end
$$;
revoke all on function public.purge_expired_trash() from public, anon, authenticated;
grant execute on function public.purge_expired_trash() to service_role;

create function private.queue_trash_purge()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.queue_server_job('purge_trash', 'purge_trash', null, private.trash_retention());
  return null;
end
$$;
revoke all on function private.queue_trash_purge() from public;

create trigger trashed_files_queue_purge
  after insert on public.trashed_files
  for each statement execute function private.queue_trash_purge();
