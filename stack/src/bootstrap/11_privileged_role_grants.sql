-- Supabase compatibility layer: what supautils lets the `postgres` role do on tables it does not own.
--
-- On hosted Supabase `postgres` is no member of supabase_auth_admin, supabase_storage_admin or
-- supabase_realtime_admin (supabase/postgres 20250421084701_revoke_admin_roles_from_postgres.sql). It may
-- still create, alter and drop policies on, and drop triggers from, exactly the tables named in supautils'
-- `policy_grants` and `drop_trigger_grants` (the same list for both), and nothing else of those tables:
-- no ALTER TABLE, no ENABLE/DISABLE RLS, no policy on auth.mfa_factors. supautils does it by running those
-- statements as the superuser. supautils is not in embedded Postgres, so event triggers do the same here:
--   * ddl_command_start, for CREATE/ALTER/DROP POLICY and DROP TRIGGER run by a `postgres` session: lend it
--     the owning service roles (INHERIT, no SET) for this one statement;
--   * sql_drop and ddl_command_end: refuse the statement unless its table is on the list, as Postgres would
--     refuse a non-owner ("must be owner of table …"), and take the roles back.
-- Everything happens inside the statement's transaction, so a refused or failed statement leaves no
-- membership behind.

create table _local_stack.policy_grants (
  table_name text primary key
);
insert into _local_stack.policy_grants (table_name) values
  ('auth.audit_log_entries'), ('auth.identities'), ('auth.refresh_tokens'), ('auth.sessions'), ('auth.users'),
  ('realtime.messages'), ('storage.buckets'), ('storage.migrations'), ('storage.objects'),
  ('storage.s3_multipart_uploads'), ('storage.s3_multipart_uploads_parts');

-- Data directories created before this file made `postgres` a member of the storage and realtime admins.
revoke supabase_storage_admin, supabase_realtime_admin from postgres;

create function _local_stack.lend_table_owner_roles() returns event_trigger
language plpgsql security definer set search_path = '' as $$
begin
  -- session_user, not current_user: this function runs as its owner. The CLI and the dashboard connect as
  -- postgres; a superuser session needs nothing lent.
  if session_user = 'postgres' then
    grant supabase_auth_admin, supabase_storage_admin, supabase_realtime_admin to postgres
      with inherit true, set false;
  end if;
end $$;

create function _local_stack.refuse_unlisted_table(p_table regclass) returns void
language plpgsql security definer set search_path = '' as $$
declare
  owner_name name := (select pg_catalog.pg_get_userbyid(c.relowner) from pg_catalog.pg_class c where c.oid = p_table);
begin
  if owner_name in ('supabase_auth_admin', 'supabase_storage_admin', 'supabase_realtime_admin')
     and not exists (select 1 from _local_stack.policy_grants g where g.table_name = p_table::text) then
    raise exception 'must be owner of table %', (select c.relname from pg_catalog.pg_class c where c.oid = p_table)
      using errcode = '42501';
  end if;
end $$;

create function _local_stack.check_dropped_policies_and_triggers() returns event_trigger
language plpgsql security definer set search_path = '' as $$
declare
  dropped record;
begin
  if session_user <> 'postgres' then
    return;
  end if;
  for dropped in
    select d.address_names from pg_catalog.pg_event_trigger_dropped_objects() d
     where d.object_type in ('policy', 'trigger') and d.original
  loop
    perform _local_stack.refuse_unlisted_table(
      format('%I.%I', dropped.address_names[1], dropped.address_names[2])::regclass);
  end loop;
end $$;

create function _local_stack.check_policies_and_take_back_roles() returns event_trigger
language plpgsql security definer set search_path = '' as $$
declare
  changed record;
begin
  if session_user <> 'postgres' then
    return;
  end if;
  for changed in
    select p.polrelid from pg_catalog.pg_event_trigger_ddl_commands() c
      join pg_catalog.pg_policy p on p.oid = c.objid
     where c.classid = 'pg_catalog.pg_policy'::regclass
  loop
    perform _local_stack.refuse_unlisted_table(changed.polrelid);
  end loop;
  revoke supabase_auth_admin, supabase_storage_admin, supabase_realtime_admin from postgres;
end $$;

create event trigger local_stack_lend_table_owner_roles on ddl_command_start
  when tag in ('CREATE POLICY', 'ALTER POLICY', 'DROP POLICY', 'DROP TRIGGER')
  execute function _local_stack.lend_table_owner_roles();
create event trigger local_stack_check_dropped_policies_and_triggers on sql_drop
  when tag in ('DROP POLICY', 'DROP TRIGGER')
  execute function _local_stack.check_dropped_policies_and_triggers();
create event trigger local_stack_take_back_table_owner_roles on ddl_command_end
  when tag in ('CREATE POLICY', 'ALTER POLICY', 'DROP POLICY', 'DROP TRIGGER')
  execute function _local_stack.check_policies_and_take_back_roles();

-- Event triggers need no EXECUTE grant; nobody else may call these.
revoke all on function _local_stack.lend_table_owner_roles(), _local_stack.refuse_unlisted_table(regclass),
  _local_stack.check_dropped_policies_and_triggers(), _local_stack.check_policies_and_take_back_roles()
  from public;
