import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Request bodies read from the Node request with a size limit. Each service says which error a too large or
 * malformed body is, in its own shape.
 */

export interface BodyLimits {
  limit: number;
  tooLarge: () => Error;
}

/**
 * The whole body, at most `limit` bytes. An oversized one is refused as soon as it passes the limit while the
 * rest is still read and discarded: destroying the request instead would take the keep-alive connection with
 * it mid-response, and the client's next request on that connection would hang.
 */
export function readBody(req: IncomingMessage, { limit, tooLarge }: BodyLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size <= limit) resolve(Buffer.concat(chunks));
    });
  });
}

/** A JSON object body; an empty body is `{}` (clients post some endpoints without one). */
export async function readJsonObject(
  req: IncomingMessage,
  limits: BodyLimits & { invalid: () => Error },
): Promise<Record<string, unknown>> {
  const text = (await readBody(req, limits)).toString('utf8');
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw limits.invalid();
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw limits.invalid();
}

/** Up to this many declared bytes, a refused body is read to its end rather than cut off. */
const DRAINED_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * Answering before the whole body arrived (a refused upload): the rest is drained so the client reads the
 * answer instead of a reset. A body of known, modest size is read to its end on a connection that stays open:
 * closing it while the client is still sending raced the client's read of the answer, and a client that lost
 * saw a reset ('fetch failed') instead of the 413. A larger or unknown one closes the connection after the
 * answer, so no next request waits behind it.
 */
export function drainUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  const declared = Number(req.headers['content-length']);
  if (!(declared <= DRAINED_BODY_LIMIT)) res.setHeader('Connection', 'close');
  req.resume();
}
