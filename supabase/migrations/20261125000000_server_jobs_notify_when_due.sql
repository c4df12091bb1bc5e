-- The worker's wake-up call fed itself: `server_jobs_notify` was a statement trigger on `update of state`,
-- and statement triggers fire even when the statement changes no row. Every `claim_server_jobs` (an
-- UPDATE … set state = 'running') therefore notified, woke the local worker, which called run-jobs, which
-- claimed again: a loop of ~80 empty claims a second through the gateway, the function runtime, PostgREST
-- and Postgres for as long as the stack ran, which every benchmark and test shared the two cores with.
--
-- Now a notification means there is something to run now: a job that became pending and is already due.
-- A claim (pending → running), a finish (→ done/failed) or a job delayed into the future (backoff,
-- coalescing) notifies nobody; the worker's poll finds delayed jobs when their time comes.

drop trigger server_jobs_notify on public.server_jobs;
drop function private.notify_server_jobs();

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
