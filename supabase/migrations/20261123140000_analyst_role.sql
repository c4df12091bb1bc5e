-- Analysts query Postgres directly (psql, Metabase, Grafana). They get a group role of their own instead
-- of `postgres` (which can change everything and read auth secrets) or the API roles (bound by RLS to one
-- staff member's view). `analyst` cannot log in and has no password: each analyst is a LOGIN member made
-- outside migrations (the local stack makes `analyst_local`; supabase/README.md shows how on hosted).
--
-- Read-only by construction: the role is granted SELECT on the `analytics` views only
-- (20261123140100_analytics_views.sql) and nothing else anywhere, so a write fails on privileges even
-- after `set default_transaction_read_only = off`. The settings below are the defaults every member gets
-- (role settings are not inherited, so the member's own `alter role … set` copies them): read-only
-- transactions guard against a stray write through some function PUBLIC may execute, and the timeouts
-- stop a runaway query or an idle open transaction from holding resources the app needs.

do $$
begin
  if not exists (select from pg_catalog.pg_roles where rolname = 'analyst') then
    create role analyst nologin noinherit nocreatedb nocreaterole noreplication nobypassrls;
  end if;
end
$$;

comment on role analyst is 'Read-only analysts: SELECT on the analytics schema only. Members log in; this role does not.';

alter role analyst set default_transaction_read_only = on;
alter role analyst set statement_timeout = '10s';
alter role analyst set idle_in_transaction_session_timeout = '5min';
-- Reports group 100k files and 450k tag links; at the default 4MB those aggregates spill to disk.
alter role analyst set work_mem = '32MB';
