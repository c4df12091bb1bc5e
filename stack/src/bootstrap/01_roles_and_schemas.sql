-- Supabase compatibility layer, part 1: roles, grants, default privileges, extensions.
-- Mirrors supabase/postgres init scripts (00000000000000-initial-schema.sql and later role migrations)
-- closely enough that migrations written for Supabase behave the same here. Runs once, as the cluster
-- superuser `supabase_admin`, inside one transaction.

-- The role migrations and the dashboard use. Like hosted Supabase it is NOT a superuser, so a migration
-- that needs superuser rights fails here as it would in production.
create role postgres login createdb createrole replication bypassrls password 'postgres';

create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
create role authenticator login noinherit password 'postgres';
grant anon, authenticated, service_role to authenticator;
-- Later Supabase migration (20230529180330_alter_api_roles_for_inherit.sql).
alter role anon inherit;
alter role authenticated inherit;
alter role service_role inherit;
-- Hosted's postgres also administers the API roles (PG 16+: with admin option) and holds these predefined
-- roles (supabase/postgres role migrations). Nothing else: it is a member of no Auth, Storage or Realtime
-- service role (11_privileged_role_grants.sql gives it what supautils does instead).
grant anon, authenticated, service_role to postgres with admin option;
grant pg_monitor, pg_read_all_data, pg_signal_backend to postgres;

-- Service roles of the Supabase platform; our Auth and Storage servers connect as the superuser, but the
-- objects they own carry the same owners as on Supabase so grants and advisors read the same.
create role supabase_auth_admin login noinherit createrole password 'postgres';
create role supabase_storage_admin login noinherit createrole password 'postgres';
create role supabase_realtime_admin nologin noinherit;
create role supabase_functions_admin login noinherit createrole password 'postgres';
create role supabase_replication_admin login replication password 'postgres';
create role supabase_read_only_user login bypassrls password 'postgres';
create role dashboard_user nologin createrole createdb replication;
grant pg_read_all_data to supabase_read_only_user;
grant authenticator to supabase_storage_admin;

alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';
alter role authenticator set lock_timeout = '8s';
alter role postgres set search_path = "$user", public, extensions;

alter database postgres owner to postgres;
grant all on database postgres to postgres, dashboard_user;

-- Extensions live in their own schema, reachable by every API role. Only those a new hosted project has
-- enabled (stack/src/hosted-defaults.ts lists them, and a test holds this file to that list): a migration
-- that uses anything else must enable it itself, or it would pass here and fail on `supabase db push`.
create schema if not exists extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role, dashboard_user;
create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists pg_stat_statements with schema extensions;
grant all on all functions in schema extensions to postgres with grant option;
alter default privileges in schema extensions grant all on functions to postgres with grant option;

-- The public schema, as Supabase exposes it: every API role may use it and, by default, gets privileges
-- on what `postgres` creates there. RLS is what actually protects the rows.
alter schema public owner to postgres;
grant usage on schema public to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;

-- db-schemas in PostgREST lists graphql_public like `supabase start`; pg_graphql itself is not available.
create schema if not exists graphql_public;
grant usage on schema graphql_public to postgres, anon, authenticated, service_role;

-- Realtime: an empty publication owned by postgres, so migrations can `alter publication … add table`.
create publication supabase_realtime;
alter publication supabase_realtime owner to postgres;

-- PostgREST reloads its schema cache when it hears `NOTIFY pgrst` (supabase/postgres
-- 20220126121436_finer-postgrest-triggers.sql does the same with event triggers).
create or replace function extensions.pgrst_ddl_watch() returns event_trigger
language plpgsql as $$
begin
  perform pg_notify('pgrst', 'reload schema');
end $$;

create or replace function extensions.pgrst_drop_watch() returns event_trigger
language plpgsql as $$
begin
  perform pg_notify('pgrst', 'reload schema');
end $$;

create event trigger pgrst_ddl_watch on ddl_command_end execute procedure extensions.pgrst_ddl_watch();
create event trigger pgrst_drop_watch on sql_drop execute procedure extensions.pgrst_drop_watch();
