import type { IncomingMessage } from 'node:http';

/**
 * The request headers as the gateway received them, before it rewrote `Authorization` and appended its own
 * `X-Forwarded-*`. Auth's rate limits key on a header the client (or a proxy in front of the stack) sent, as
 * GoTrue keys on `GOTRUE_RATE_LIMIT_HEADER`: the gateway's own addition would put every local caller in one
 * bucket, which `supabase start` (no header configured) never does.
 */
const received = new WeakMap<IncomingMessage, IncomingMessage['headers']>();

export function rememberReceivedHeaders(req: IncomingMessage): void {
  if (!received.has(req)) received.set(req, { ...req.headers });
}

/** A header's value as received (joined with ", " when repeated); the current value if nothing was recorded. */
export function receivedHeader(req: IncomingMessage, name: string): string | undefined {
  const value = (received.get(req) ?? req.headers)[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}
