import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context, Hono } from 'hono';
import type { MountedService } from '../service.ts';

/**
 * The in-process services (storage, realtime's REST side, auth) are Hono apps mounted under the gateway.
 * Route handlers get web-standard `c.req`/`c.json`, and the raw Node request and response as `c.env.incoming`
 * and `c.env.outgoing` for what must stream (uploads are piped from `incoming`, downloads written to
 * `outgoing`, then the handler returns `alreadySent`). Hono never reads a body unless a handler asks it to:
 * no handler here does, so nothing is buffered behind a handler's back.
 */

export type NodeEnv = { Bindings: HttpBindings };
export type NodeContext = Context<NodeEnv>;

/** What a handler returns after writing the response itself to `c.env.outgoing`. */
export const alreadySent = RESPONSE_ALREADY_SENT;

export function mountHono(
  app: Hono<NodeEnv>,
  service: {
    close: () => Promise<void>;
    handleUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer, subpath: string) => void;
  },
): MountedService {
  const listener = getRequestListener(app.fetch, {
    // The stack shares its process with tests and tools that use the platform's fetch: leave the globals alone.
    overrideGlobalObjects: false,
    // Each service decides what happens to an unread body (storage drains a refused upload and closes after).
    autoCleanupIncoming: false,
  });
  return {
    async handle(req, res, subpath) {
      req.url = subpath;
      await listener(req, res);
    },
    handleUpgrade: service.handleUpgrade,
    close: service.close,
  };
}

/**
 * Hono's `onError` for a service: the service turns the error into its own error body; when the response had
 * already started (a download cut by a disk error), the connection is dropped instead, as nothing else can be
 * said on it.
 */
export function errorHandler(toResponse: (error: Error, c: NodeContext) => Response | Promise<Response>) {
  return async (error: Error, c: NodeContext): Promise<Response> => {
    if (c.env.outgoing.headersSent) {
      c.env.outgoing.destroy();
      return alreadySent;
    }
    return toResponse(error, c);
  };
}
