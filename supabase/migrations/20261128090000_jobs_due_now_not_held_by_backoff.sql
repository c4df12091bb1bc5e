-- A job queued for now is not held back by the backoff of the pending one with the same key.
--
-- Jobs coalesce on their key: while one is pending, queuing another leaves it as it is. After a failure the
-- pending job waits out its backoff (30 s, doubling up to an hour), and until now it kept that time even when
-- new work came for it: one object that could not be moved to the trash (the whole `trash_objects` run is
-- retried) left every file deleted after it in `media` for as long as the backoff lasted, and a replaced
-- upload waited out the backoff of its failed first version. Now queuing brings the pending job forward to
-- the new time when that is earlier (never later: coalescing delays, such as the analysts' refresh a minute
-- after a burst, still count from the first change of the burst), and wakes the runner if that makes it due.
create or replace function private.queue_server_job(p_kind text, p_dedupe_key text, p_file_id uuid default null,
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
