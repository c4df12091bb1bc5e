-- On hosted Supabase the server jobs are worked off by pg_cron + pg_net: every 10 seconds, if a job is
-- due, Postgres POSTs to the `run-jobs` edge function with the service role key, and the function claims
-- and runs the jobs. The project URL and the key come from Supabase Vault (set them once per project,
-- see README "Server jobs"):
--   select vault.create_secret('https://<ref>.supabase.co', 'project_url');
--   select vault.create_secret('<service role key>', 'service_role_key');
-- Where pg_cron or pg_net are not available (the local stack, plain Postgres) this migration only creates
-- the function; the local stack's own job worker calls `run-jobs` instead.

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
