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
      console.error(error);
      return json(500, { code: 'INTERNAL', message: 'Error interno del servidor. Inténtalo de nuevo.' });
    }
  });
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
