-- Supabase compatibility layer: `postgres` may tune PostgREST from a migration.
-- On Supabase, supautils lets the privileged role `postgres` run `alter role authenticator set pgrst.*`
-- (supautils.privileged_role_allowed_configs includes 'pgrst.*'), e.g. to set pgrst.db_schemas or
-- pgrst.db_pre_request. supautils is not in embedded Postgres, so the same is granted with plain
-- Postgres privileges:
-- 1. since PG 16 a CREATEROLE role may change another role's settings once it holds ADMIN OPTION on it;
--    INHERIT FALSE and SET FALSE keep `postgres` from gaining authenticator's privileges or becoming it.
grant authenticator to postgres with admin true, inherit false, set false;
-- 2. `pgrst.*` are placeholder parameters, which a non-superuser may store in a role's settings only with
--    SET privilege on each (GRANT has no wildcard): every setting PostgREST reads from the database.
do $$
declare
  name text;
begin
  foreach name in array array[
    'db_aggregates_enabled', 'db_anon_role', 'db_extra_search_path', 'db_hoisted_tx_settings',
    'db_max_rows', 'db_plan_enabled', 'db_pre_config', 'db_pre_request', 'db_prepared_statements',
    'db_root_spec', 'db_schemas', 'db_tx_end', 'jwt_aud', 'jwt_cache_max_entries', 'jwt_cache_max_lifetime',
    'jwt_role_claim_key', 'jwt_secret', 'jwt_secret_is_base64', 'openapi_mode', 'openapi_security_active',
    'openapi_server_proxy_uri', 'server_cors_allowed_origins', 'server_timing_enabled', 'server_trace_header'
  ] loop
    execute format('grant set on parameter pgrst.%I to postgres', name);
  end loop;
end $$;
