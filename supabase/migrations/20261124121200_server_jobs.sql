-- Work after a change (post-processing an upload, updating the public feed, moving objects to the
-- trash, purging the Papelera) is a durable job in this table, queued by triggers in the same transaction as
-- the change and worked off by the server: the `run-jobs` edge function, called by pg_cron + pg_net on
-- hosted Supabase (end of this file) and by the local stack's job worker. Never by a browser tab. So a change
-- committed from the app, a script, SQL or another client gets its follow-up work, and a rolled back one
-- gets none.
--
-- A plain table rather than pgmq (Supabase Queues): pgmq is not installed everywhere this project runs, and
-- the queue needs things a message queue does not give for free: coalescing (a burst of 500 changes waits
-- as ONE pending feed job), a per-file row admins can read with its last error, and a terminal `failed`
-- state that stays visible until someone presses 'Reintentar'. Claiming uses `for update skip locked`, so
-- two workers never run one job at the same time.

create table public.server_jobs (
  id bigint generated always as identity primary key,
  kind text not null,
  file_id uuid,
  -- Jobs with the same key coalesce while pending (see server_jobs_pending_key_idx).
  dedupe_key text not null check (char_length(dedupe_key) between 1 and 200),
  state text not null default 'pending' check (state in ('pending', 'running', 'done', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 6 check (max_attempts between 1 and 50),
  run_after timestamptz not null default now(),
  -- A claimed job belongs to its worker until then; a worker that died leaves it to the next one.
  locked_until timestamptz,
  last_error text check (char_length(last_error) <= 2000),
  -- Where a job that runs in several steps stands (continue_server_job), e.g. a checksum's hash state: each
  -- step is one request to the runner and must fit an Edge Function's limits, so long work is cut in steps.
  progress jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  constraint server_jobs_kind_check
    check (kind in ('process_upload', 'update_feed', 'trash_objects', 'purge_trash', 'refresh_analytics',
                    'expire_rights'))
);

create unique index server_jobs_pending_key_idx on public.server_jobs (dedupe_key) where state = 'pending';
create index server_jobs_due_idx on public.server_jobs (run_after, id) where state in ('pending', 'running');
create index server_jobs_file_id_idx on public.server_jobs (file_id) where file_id is not null;

alter table public.server_jobs enable row level security;
create policy "Admins read server jobs" on public.server_jobs
  for select to authenticated using ((select private.is_admin()));

revoke all on public.server_jobs from anon, authenticated;
grant select on public.server_jobs to authenticated;
grant all on public.server_jobs to service_role;

create trigger server_jobs_touch_updated_at
  before update on public.server_jobs
  for each row execute function private.touch_updated_at();

-- The queue ---------------------------------------------------------------------------------------------------

-- Queues one job; while one with the same key is pending, the two coalesce into it. A job queued for an earlier
-- time brings the pending one forward (never later: coalescing delays, such as the analysts' refresh a minute
-- after a burst, still count from the first change of the burst), so new work is not held back by the backoff
-- of a failed attempt (30 s, doubling up to an hour): one object that could not be moved to the trash would
-- otherwise leave every file deleted after it in `media` for as long as the backoff lasted. A job that is due
-- now wakes the runner.
create function private.queue_server_job(p_kind text, p_dedupe_key text, p_file_id uuid default null,
                                         p_delay interval default '0 seconds')
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_run_after timestamptz;
begin
  insert into public.server_jobs as j (kind, dedupe_key, file_id, run_after)
  values (p_kind, p_dedupe_key, p_file_id, now() + p_delay)
  on conflict (dedupe_key) where state = 'pending'
  do update set run_after = excluded.run_after
   where j.run_after > excluded.run_after
  returning j.run_after into v_run_after;
  -- On hosted Supabase, a job due now wakes the runner at commit instead of at the next scheduled call
  -- (pg_net sends what was queued once the transaction commits, and nothing for a rolled back one).
  if v_run_after is not null and v_run_after <= now() then
    perform private.kick_server_jobs();
  end if;
end
$$;
revoke all on function private.queue_server_job(text, text, uuid, interval) from public;

-- Wakes a listening worker (the local stack's) at commit instead of at its next poll, only when there is
-- something to run now: a job that became pending and is already due. A claim (pending → running), a finish
-- or a job delayed into the future (backoff, coalescing) notifies nobody; the worker's poll finds delayed
-- jobs when their time comes. (A statement trigger on every update once woke the worker on its own empty
-- claims: ~80 wasted claims a second for as long as a stack ran.)
create function private.notify_due_server_jobs()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from changed_jobs j where j.state = 'pending' and j.run_after <= now()) then
    perform pg_notify('server_jobs', '');
  end if;
  return null;
end
$$;
revoke all on function private.notify_due_server_jobs() from public;

-- Two triggers, since a trigger with transition tables may name one event only.
create trigger server_jobs_notify_inserted
  after insert on public.server_jobs
  referencing new table as changed_jobs
  for each statement execute function private.notify_due_server_jobs();

create trigger server_jobs_notify_updated
  after update on public.server_jobs
  referencing new table as changed_jobs
  for each statement execute function private.notify_due_server_jobs();

-- Takes up to p_limit due jobs for one runner: pending ones whose time has come, and running ones whose
-- runner's lease ran out (the runtime ended it mid-job: a resource limit, a crash). Each claim counts as an
-- attempt; a job interrupted that way with its attempts used up is failed instead, for an admin to see and
-- retry. At most p_max_running jobs run at once, so runners started side by side (the schedule, a chained
-- call) share the work instead of multiplying it.
create function public.claim_server_jobs(p_limit integer default 10, p_lease_seconds integer default 150,
                                         p_max_running integer default 2)
returns setof public.server_jobs
language plpgsql
security definer
set search_path = ''
as $$
declare
  free_slots integer;
begin
  update public.server_jobs
     set state = 'failed', locked_until = null, finished_at = now(),
         last_error = 'El servidor interrumpió este trabajo (límite de CPU, memoria o tiempo) en cada intento'
   where state = 'running' and locked_until < now() and attempts >= max_attempts;
  select greatest(p_max_running - count(*), 0) into free_slots
    from public.server_jobs where state = 'running' and locked_until >= now();
  return query
  update public.server_jobs j
     set state = 'running', attempts = j.attempts + 1,
         locked_until = now() + make_interval(secs => greatest(p_lease_seconds, 1)),
         last_error = case when j.state = 'running' then 'Interrumpido por el servidor, se reintenta' else j.last_error end
   where j.id in (
     select c.id from public.server_jobs c
      where ((c.state = 'pending' and c.run_after <= now())
             or (c.state = 'running' and c.locked_until < now()))
        -- One run per key at a time: a feed update queued during another waits for it to end, so an older
        -- page never overwrites a newer one.
        and not exists (select 1 from public.server_jobs r
                         where r.dedupe_key = c.dedupe_key and r.id <> c.id
                           and r.state = 'running' and r.locked_until >= now())
      order by c.run_after, c.id
      limit least(greatest(least(p_limit, 100), 1), free_slots)
      for update skip locked)
  returning j.*;
end
$$;

-- Records a claimed job's outcome: done, or back to pending after an exponential backoff
-- (30 s, 1 min, 2 min, 4 min, … capped at 1 h), or failed for good once its attempts are used up.
create function public.finish_server_job(p_id bigint, p_error text default null)
returns public.server_jobs
language plpgsql
security definer
set search_path = ''
as $$
declare
  job public.server_jobs;
begin
  if p_error is null then
    update public.server_jobs
       set state = 'done', locked_until = null, last_error = null, finished_at = now()
     where id = p_id and state = 'running'
    returning * into job;
    return job;
  end if;
  update public.server_jobs j
     set state = case when j.attempts >= j.max_attempts then 'failed' else 'pending' end,
         run_after = now() + least(interval '30 seconds' * power(2, greatest(j.attempts - 1, 0)), interval '1 hour'),
         locked_until = null,
         last_error = left(p_error, 2000),
         finished_at = case when j.attempts >= j.max_attempts then now() end
   where j.id = p_id and j.state = 'running'
  returning j.* into job;
  return job;
exception
  -- Another pending job with the same key was queued while this one ran: that one will do the work.
  when unique_violation then
    update public.server_jobs
       set state = 'done', locked_until = null, last_error = left(p_error, 2000), finished_at = now()
     where id = p_id
    returning * into job;
    return job;
end
$$;

-- Ends one step of a job that goes on: back to pending at once with where it stands, the step not counted as
-- an attempt (a step that fails goes through finish_server_job and is retried from the same progress).
create function public.continue_server_job(p_id bigint, p_progress jsonb)
returns public.server_jobs
language plpgsql
security definer
set search_path = ''
as $$
declare
  job public.server_jobs;
begin
  update public.server_jobs j
     set state = 'pending', run_after = now(), locked_until = null, progress = p_progress,
         attempts = greatest(j.attempts - 1, 0), last_error = null
   where j.id = p_id and j.state = 'running'
  returning j.* into job;
  return job;
exception
  -- The same work was queued again meanwhile (a replaced object, new feed changes): that job starts it anew.
  when unique_violation then
    update public.server_jobs
       set state = 'done', locked_until = null, finished_at = now(), last_error = 'superseded by a newer run'
     where id = p_id
    returning * into job;
    return job;
end
$$;

-- The local stack's worker is the only one of its database: at its start, a job still `running` was
-- left by the previous run (stopped mid-job) and is given back at once instead of after its lease.
create function public.release_server_jobs()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  released integer;
begin
  -- Where the same work is already waiting (or two runs were left), one pending job is enough.
  update public.server_jobs r
     set state = 'done', locked_until = null, finished_at = now(), last_error = 'superseded after a restart'
   where r.state = 'running'
     and (exists (select 1 from public.server_jobs p where p.dedupe_key = r.dedupe_key and p.state = 'pending')
          or exists (select 1 from public.server_jobs o
                      where o.dedupe_key = r.dedupe_key and o.state = 'running' and o.id < r.id));
  update public.server_jobs set state = 'pending', locked_until = null, run_after = now()
   where state = 'running';
  get diagnostics released = row_count;
  return released;
end
$$;

revoke all on function public.claim_server_jobs(integer, integer, integer), public.finish_server_job(bigint, text),
  public.continue_server_job(bigint, jsonb), public.release_server_jobs() from public, anon, authenticated;
grant execute on function public.claim_server_jobs(integer, integer, integer), public.finish_server_job(bigint, text),
  public.continue_server_job(bigint, jsonb), public.release_server_jobs() to service_role;

-- 'Reintentar' on a failed job (admins): a fresh set of attempts, due now.
create function public.retry_server_job(p_id bigint)
returns public.server_jobs
language plpgsql
security definer
set search_path = ''
as $$
declare
  job public.server_jobs;
begin
  perform private.require_admin();
  update public.server_jobs
     set state = 'pending', attempts = 0, run_after = now(), locked_until = null, finished_at = null
   where id = p_id and state = 'failed'
  returning * into job;
  if job.id is null then
    raise exception 'Only a failed job can be retried' using errcode = 'P0002', hint = 'JOB_NOT_FAILED';
  end if;
  return job;
exception
  when unique_violation then
    raise exception 'The same work is already waiting to run' using errcode = '23505', hint = 'JOB_ALREADY_PENDING';
end
$$;
revoke all on function public.retry_server_job(bigint) from public, anon;
grant execute on function public.retry_server_job(bigint) to authenticated, service_role;

-- What queues jobs ------------------------------------------------------------------------------------------
-- Statement-level triggers with transition tables where a change can be bulk: 500 rows queue once.

-- Post-processing: a new file still `processing`, or a file whose object was replaced.
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

-- The trash (trash.sql): new trash jobs → one run of the object mover; a newly trashed file → the purge due
-- when it expires (the earliest pending one stays).
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

-- The analysts' materialized views (analytics.sql): refreshed once, a minute after a burst of changes to tags
-- or their links (an upload or a bulk tag edit), coalesced like the feed.
create function private.queue_analytics_refresh()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.queue_server_job('refresh_analytics', 'refresh_analytics', null, interval '1 minute');
  return null;
end
$$;
revoke all on function private.queue_analytics_refresh() from public;

create trigger files_queue_analytics_refresh
  after insert or delete on public.files
  for each statement execute function private.queue_analytics_refresh();
create trigger file_tags_queue_analytics_refresh
  after insert or delete on public.file_tags
  for each statement execute function private.queue_analytics_refresh();
create trigger tags_queue_analytics_refresh
  after insert or update or delete on public.tags
  for each statement execute function private.queue_analytics_refresh();
create trigger tag_categories_queue_analytics_refresh
  after insert or update or delete on public.tag_categories
  for each statement execute function private.queue_analytics_refresh();

-- Who runs them on hosted Supabase ----------------------------------------------------------------------------
-- pg_cron + pg_net: every 10 seconds, if a job is due, Postgres POSTs to the `run-jobs` edge function with
-- the service role key, and the function claims and runs the jobs; a job queued due now also POSTs at once
-- (queue_server_job), so a change reaches the feed within seconds. The project URL and the key come from
-- Supabase Vault (set them once per project, supabase/README.md "Deploying"):
--   select vault.create_secret('https://<ref>.supabase.co', 'project_url');
--   select vault.create_secret('<service role key>', 'service_role_key');
-- Where pg_cron or pg_net are not available (the local stack, plain Postgres) only the function is created;
-- the local stack's own job worker calls `run-jobs` instead.
create function private.kick_server_jobs()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  project_url text;
  service_key text;
begin
  -- Without pg_net and Vault (the local stack, plain Postgres) another worker calls the runner.
  if to_regnamespace('net') is null or to_regclass('vault.decrypted_secrets') is null then
    return;
  end if;
  if not exists (select 1 from public.server_jobs j
                  where (j.state = 'pending' and j.run_after <= now())
                     or (j.state = 'running' and j.locked_until < now())) then
    return;
  end if;
  select s.decrypted_secret into project_url from vault.decrypted_secrets s where s.name = 'project_url';
  select s.decrypted_secret into service_key from vault.decrypted_secrets s where s.name = 'service_role_key';
  if project_url is null or service_key is null then
    raise warning 'server jobs are waiting, but the vault secrets project_url and service_role_key are not set';
    return;
  end if;
  perform net.http_post(
    url := rtrim(project_url, '/') || '/functions/v1/run-jobs',
    headers := jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || service_key),
    body := '{}'::jsonb,
    timeout_milliseconds := 150000
  );
end
$$;
revoke all on function private.kick_server_jobs() from public;

do $$
begin
  if not exists (select 1 from pg_available_extensions where name = 'pg_cron')
     or not exists (select 1 from pg_available_extensions where name = 'pg_net') then
    raise notice 'pg_cron or pg_net is not available: server jobs need another worker (the local stack has one)';
    return;
  end if;
  begin
    create extension if not exists pg_net with schema extensions;
    create extension if not exists pg_cron;
    -- Same name again replaces the schedule, so re-running this is harmless. Seconds need pg_cron >= 1.5.
    perform cron.schedule('mediateca-server-jobs', '10 seconds', 'select private.kick_server_jobs()');
  exception
    when others then
      -- e.g. pg_cron listed but not in shared_preload_libraries: keep the migration applicable.
      raise warning 'server jobs are not scheduled: %', sqlerrm;
  end;
end
$$;
