-- PostgREST reloads its schema cache on `NOTIFY pgrst`, and a reload is not free: PostgREST 12 runs its whole
-- connection worker again (it logs "Starting PostgREST …" anew), flushes its pool and queries the catalog.
-- The first event triggers of this stack notified on EVERY DDL event, so ordinary use reloaded it every
-- few minutes: `refresh materialized view` (the analysts' views after a tag change), temporary tables and
-- their drops. Supabase's own triggers notify only for commands that change what PostgREST can expose and
-- never for objects in pg_temp; these do the same.
create or replace function extensions.pgrst_ddl_watch() returns event_trigger
language plpgsql as $$
declare
  command record;
begin
  for command in select * from pg_event_trigger_ddl_commands() loop
    if command.command_tag in ('CREATE SCHEMA', 'ALTER SCHEMA', 'CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO',
                               'ALTER TABLE', 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE', 'CREATE VIEW',
                               'ALTER VIEW', 'CREATE MATERIALIZED VIEW', 'ALTER MATERIALIZED VIEW',
                               'CREATE FUNCTION', 'ALTER FUNCTION', 'CREATE TRIGGER', 'CREATE TYPE', 'ALTER TYPE',
                               'CREATE RULE', 'COMMENT')
       and command.schema_name is distinct from 'pg_temp' then
      perform pg_notify('pgrst', 'reload schema');
      return;
    end if;
  end loop;
end $$;

create or replace function extensions.pgrst_drop_watch() returns event_trigger
language plpgsql as $$
declare
  dropped record;
begin
  for dropped in select * from pg_event_trigger_dropped_objects() loop
    if dropped.object_type in ('schema', 'table', 'foreign table', 'view', 'materialized view', 'function',
                               'trigger', 'type', 'rule')
       and not dropped.is_temporary then
      perform pg_notify('pgrst', 'reload schema');
      return;
    end if;
  end loop;
end $$;
