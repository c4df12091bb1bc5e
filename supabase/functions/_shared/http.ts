// Responses every Mediateca function shares: JSON with a stable `code` the app translates, a Spanish
// `message` it can show as is, and the CORS headers hosted Supabase requires functions to send themselves.

export const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, x-retry-count',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'content-type': 'application/json' },
  });
}

/** Wraps a handler: answers CORS preflights, turns HttpError into its JSON, hides other errors' details. */
export function serve(handler: (request: Request) => Promise<Response>): void {
  Deno.serve(async (request) => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof HttpError) return json(error.status, { code: error.code, message: error.message });
      const refused = refusalOf(error);
      if (refused) return json(refused.status, { code: refused.code, message: refused.message });
      console.error(error);
      return json(500, { code: 'INTERNAL', message: 'Error interno del servidor. Inténtalo de nuevo.' });
    }
  });
}

/**
 * A database error that was the request's fault, thrown on by a handler (PostgREST's JSON error: `code` is
 * the SQLSTATE): a value Postgres refused (class 22), a rule it broke (23, or a function's own P0001 with its
 * hint), a permission (42501). The caller gets a 4xx naming it, not a 500; anything else stays a 500.
 */
function refusalOf(error: unknown): { status: number; code: string; message: string } | null {
  const value = error as { code?: unknown; hint?: unknown } | null;
  const sqlState = typeof value?.code === 'string' ? value.code : '';
  const hint = typeof value?.hint === 'string' && /^[A-Z_]+$/.test(value.hint) ? value.hint : null;
  if (sqlState === '42501')
    return { status: 403, code: hint ?? 'NOT_ALLOWED', message: 'No tienes permiso para hacer esto.' };
  if (/^(22|23)/.test(sqlState) || sqlState === 'P0001' || sqlState === 'P0002') {
    return { status: 400, code: hint ?? 'INVALID_INPUT', message: 'La petición no es válida.' };
  }
  return null;
}

export async function readJson(request: Request): Promise<Record<string, unknown>> {
  try {
    const body = await request.json();
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new HttpError(400, 'INVALID_BODY', 'La petición no es válida.');
}
