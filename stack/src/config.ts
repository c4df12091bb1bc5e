/**
 * Defaults of `supabase start`, so that keys, secrets and ports printed by this stack are the ones
 * a Supabase developer already knows.
 */
export const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

export const ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

export const SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

export const PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';
export const SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';

/** Superuser of the cluster, like Supabase's `supabase_admin`; the `postgres` role is not a superuser. */
export const DB_SUPERUSER = 'supabase_admin';
export const DB_PASSWORD = 'postgres';
export const DB_NAME = 'postgres';

/** The local analyst login (a member of the migrations' read-only `analyst` role); local only. */
export const ANALYST_LOCAL_USER = 'analyst_local';
export const ANALYST_LOCAL_PASSWORD = 'analyst-local';

export const DEFAULT_API_PORT = 54321;
export const DEFAULT_DB_PORT = 54322;
export const DEFAULT_HOST = '127.0.0.1';
