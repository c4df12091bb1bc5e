// Responses every Mediateca function shares: JSON with a stable `code` the app translates, a Spanish
// `message` it can show as is, and the CORS headers hosted Supabase requires functions to send themselves.
import { TIMEOUT_BODY, TIMEOUT_STATUS, requestTimeoutMs, timedOutCall, withDeadlineRecord } from './deadline.ts';

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

/**
 * Wraps a handler: answers CORS preflights, turns HttpError into its JSON, hides other errors' details. A
 * request whose outbound call met its deadline (deadline.ts), or that has no response after the request
 * deadline, answers 504 UPSTREAM_TIMEOUT, whatever the handler made of the failed call.
 */
export function serve(handler: (request: Request) => Promise<Response>): void {
  Deno.serve((request) => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    return withDeadlineRecord(() => answer(handler, request));
  });
}

async function answer(handler: (request: Request) => Promise<Response>, request: Request): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError()), requestTimeoutMs());
  });
  try {
    return await Promise.race([handler(request), late]);
  } catch (error) {
    if (error instanceof RequestTimeoutError || timedOutCall()) {
      console.error(`${new URL(request.url).pathname}: ${timedOutCall()?.message ?? error}`);
      return json(TIMEOUT_STATUS, TIMEOUT_BODY);
    }
    if (error instanceof HttpError) return json(error.status, { code: error.code, message: error.message });
    const refused = refusalOf(error);
    if (refused) return json(refused.status, { code: refused.code, message: refused.message });
    console.error(error);
    return json(500, { code: 'INTERNAL', message: 'Error interno del servidor. Inténtalo de nuevo.' });
  } finally {
    clearTimeout(timer);
  }
}

class RequestTimeoutError extends Error {
  constructor() {
    super(`no response within ${requestTimeoutMs()} ms`);
  }
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
