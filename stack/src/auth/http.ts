import type { IncomingMessage, ServerResponse } from 'node:http';

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
function wantsModernErrors(req: IncomingMessage): boolean {
  const requested = req.headers['x-supabase-api-version'];
  const value = Array.isArray(requested) ? requested[0] : requested;
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && value >= API_VERSION;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(payload)),
    ...headers,
  });
  res.end(payload);
}

export function sendError(req: IncomingMessage, res: ServerResponse, error: AuthError) {
  if (error instanceof OAuthError) {
    sendJson(res, 400, { error: error.code, error_description: error.message });
    return;
  }
  const headers: Record<string, string> = { 'x-sb-error-code': error.code };
  if (wantsModernErrors(req)) {
    headers['X-Supabase-Api-Version'] = API_VERSION;
    sendJson(res, error.status, { code: error.code, message: error.message, ...error.extra }, headers);
  } else {
    const legacy: Record<string, unknown> = { code: error.status, error_code: error.code, msg: error.message };
    if (error.status >= 500) legacy.error_id = crypto.randomUUID();
    sendJson(res, error.status, { ...legacy, ...error.extra }, headers);
  }
}

/** Reads a JSON object body; an empty body is `{}` (auth-js posts /logout with no body). */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new AuthError(413, 'request_too_large', 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
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

/**
 * The address the gateway saw: the last X-Forwarded-For entry, which it appends itself. Rate limits key on it:
 * the first entry (clientIp's) is whatever the client claimed, and would let anyone reset a limit with a header.
 */
export function gatewaySeenAddress(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-for'];
  const last = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',').pop()?.trim();
  return last || req.socket.remoteAddress || 'unknown';
}

export const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);
