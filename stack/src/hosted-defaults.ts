/**
 * What a new hosted Supabase project gives the `postgres` role and the migrations before the first
 * `supabase db push`, as read in supabase/postgres (its init scripts and role migrations, up to
 * 20261010094800). The local stack's bootstrap may give no more: tests/integration/deploy-rehearsal.test.ts
 * holds a freshly bootstrapped database to these lists, so a migration that relies on anything else fails
 * here instead of on the first deploy.
 */

/** Extensions enabled in a new project, and whether embedded Postgres can provide them here. */
export const HOSTED_DEFAULT_EXTENSIONS: Record<string, { schema: string; availableHere: boolean }> = {
  plpgsql: { schema: 'pg_catalog', availableHere: true },
  'uuid-ossp': { schema: 'extensions', availableHere: true },
  pgcrypto: { schema: 'extensions', availableHere: true },
  pg_stat_statements: { schema: 'extensions', availableHere: true },
  // Supabase's own builds; not in embedded Postgres, and no migration here uses them.
  supabase_vault: { schema: 'vault', availableHere: false },
  // pg_graphql was on by default until supabase/postgres 20260421000000_pg_graphql-off-by-default.sql.
};

/**
 * Roles `postgres` is a member of on hosted (10000000000000_demote-postgres.sql and the grants after it;
 * 20250421084701_revoke_admin_roles_from_postgres.sql took away the Auth, Storage and Realtime admins).
 * `authenticator` is held with ADMIN OPTION only, without INHERIT or SET, so `postgres` may set its pgrst.*
 * settings as supautils allows (bootstrap/07_privileged_role_settings.sql).
 */
export const HOSTED_POSTGRES_MEMBERSHIPS = [
  'anon',
  'authenticated',
  'service_role',
  'pg_monitor',
  'pg_read_all_data',
  'pg_signal_backend',
  'authenticator',
] as const;
