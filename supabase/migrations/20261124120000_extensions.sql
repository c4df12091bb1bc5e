-- Extensions the schema uses, enabled here because a new hosted project does not have them all:
--   * unaccent: accent-insensitive search text (private.normalize_search_text, file_search.sql);
--   * pg_trgm: trigram GIN indexes, so `like '%word%'` is an index lookup (files' text, the search vocabulary, academy users);
--   * pgcrypto: crypt()/gen_salt() for the demo accounts in seed.sql (hosted enables it by default; stated
--     here so the schema never depends on a default).
-- All live in `extensions`, as on Supabase, never in `public`. pg_cron and pg_net (the hosted schedule of
-- server jobs) are optional and enabled by server_jobs.sql only where the platform offers them.
create extension if not exists unaccent with schema extensions;
create extension if not exists pg_trgm with schema extensions;
create extension if not exists pgcrypto with schema extensions;
