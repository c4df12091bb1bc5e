/**
 * Hosted Supabase loads pg-safeupdate into the Data API's sessions (supabase/postgres
 * 20260403172611_safeupdate-data-api-enable.sql): an UPDATE or DELETE without a WHERE clause fails with
 * SQLSTATE 21000, which PostgREST answers with 400. PostgREST writes a WHERE only for filters in the query
 * string (or a limited update with `limit`), so an unfiltered PATCH or DELETE on a table is refused there,
 * RLS or not. The extension is not in embedded Postgres; the gateway refuses the same requests, with the
 * same answer. Statements inside RPCs are held to the rule by tests/integration/schema-rules.test.ts.
 */

/** Query parameters that shape a PostgREST request without filtering rows. */
const NOT_FILTERS = new Set(['select', 'order', 'offset', 'columns', 'on_conflict', 'apikey']);

export function safeupdateRefusal(
  method: string,
  subpath: string,
): { status: number; body: Record<string, unknown> } | undefined {
  if (method !== 'PATCH' && method !== 'DELETE') return undefined;
  const url = new URL(subpath, 'http://postgrest.local');
  if (url.pathname.startsWith('/rpc/') || url.pathname === '/' || url.searchParams.has('limit')) return undefined;
  for (const name of url.searchParams.keys()) if (!NOT_FILTERS.has(name)) return undefined;
  return {
    status: 400,
    body: {
      code: '21000',
      details: null,
      hint: null,
      message: `${method === 'PATCH' ? 'UPDATE' : 'DELETE'} requires a WHERE clause`,
    },
  };
}
