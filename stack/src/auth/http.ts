import type { IncomingMessage } from 'node:http';

/** An error GoTrue would answer with: HTTP status, stable error code and message. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** GoTrue's OAuth-style error (`apierrors.NewOAuthError`): always `400 {error, error_description}`. */
export class OAuthError extends AuthError {
  constructor(error: string, description: string) {
    super(400, error, description);
  }
}

const API_VERSION = '2024-01-01';
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * auth-js sends `X-Supabase-Api-Version: 2024-01-01` and then reads `body.code` as the error code, but only
 * when the response carries the same header; older clients get GoTrue's legacy body.
 */
function wantsModernErrors(headers: Headers): boolean {
  const value = headers.get('x-supabase-api-version');
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && value >= API_VERSION;
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const payload = JSON.stringify(body);
  return new Response(payload, {
    status,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(payload)),
      ...headers,
    },
  });
}

/** The error body GoTrue sends, in the shape the client asked for. */
export function errorResponse(requestHeaders: Headers, error: AuthError): Response {
  if (error instanceof OAuthError) {
    return jsonResponse(400, { error: error.code, error_description: error.message });
  }
  const headers: Record<string, string> = { 'x-sb-error-code': error.code };
  if (wantsModernErrors(requestHeaders)) {
    headers['X-Supabase-Api-Version'] = API_VERSION;
    return jsonResponse(error.status, { code: error.code, message: error.message, ...error.extra }, headers);
  }
  const legacy: Record<string, unknown> = { code: error.status, error_code: error.code, msg: error.message };
  if (error.status >= 500) legacy.error_id = crypto.randomUUID();
  return jsonResponse(error.status, { ...legacy, ...error.extra }, headers);
}

/** Reads a JSON object body; an empty body is `{}` (auth-js posts /logout with no body). */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw new AuthError(413, 'request_too_large', 'Request body too large');
  const bytes = request.body ? Buffer.from(await request.arrayBuffer()) : Buffer.alloc(0);
  if (bytes.length > MAX_BODY_BYTES) throw new AuthError(413, 'request_too_large', 'Request body too large');
  const text = bytes.toString('utf8').trim();
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON');
}

export function clientIp(req: IncomingMessage): string | null {
  const forwarded = req.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  const ip = first || req.socket.remoteAddress || null;
  return ip?.replace(/^::ffff:/, '') ?? null;
}

export const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);
