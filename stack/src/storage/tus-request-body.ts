import type { IncomingMessage } from 'node:http';
import { Server, type CancellationContext, type DataStore, type ServerOptions, type Upload } from '@tus/server';
import type { TusFileStore } from './tus-file-store.ts';

/**
 * @tus/server 2.x reads an upload's bytes as a web stream made from the Node request (srvx's
 * `Readable.toWeb`, which copies every chunk) and turns that back into a Node stream (`Readable.fromWeb`)
 * through a PassThrough and a StreamLimiter, before the file store's own Transform and WriteStream: five
 * stream hops and a copy for every 64 KiB received: 1.46× the raw PUT's CPU per GiB, and with the client
 * and the stack sharing two cores, a 1 GiB upload at 0.73–0.79× a raw PUT on a busy machine (now
 * 1.13× the CPU and over 1× the PUT now). The PATCH and POST handlers here are @tus/server's own,
 * subclassed: the header checks, the lock, offsets, expiry, the size limit and our hooks all stay theirs.
 * Only the bytes' way changes: the Node request is written straight to the file.
 */

type Handlers = Server['handlers'];
type TusRequest = Parameters<Handlers['PATCH']['send']>[0];
type TusHeaders = Parameters<Handlers['PATCH']['send']>[2];
type HandlerClass<H> = new (store: DataStore, options: ServerOptions) => H;

/** The Node request behind srvx's web-style request (srvx ≥ 0.9 keeps it at `runtime.node.req`). */
const incomingOf = (req: TusRequest): IncomingMessage | undefined =>
  (req as TusRequest & { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;

/**
 * Installs the direct-body PATCH and POST (creation-with-upload) handlers on `server`. Called right after
 * `new Server(…)`, before anything listens to the server's events.
 */
export function writeBodiesStraightToFile(server: Server, store: TusFileStore): void {
  const requests = new WeakMap<CancellationContext, IncomingMessage>();

  /** @tus/server's handler, with `writeToStore` reading the Node request instead of `req.body`. */
  const direct = <H extends Handlers['PATCH'] | Handlers['POST']>(handler: H): H => {
    const Base = handler.constructor as HandlerClass<Handlers['PATCH']>;
    class DirectBodyHandler extends Base {
      override send(req: TusRequest, context: CancellationContext, headers?: TusHeaders) {
        const incoming = incomingOf(req);
        if (incoming) {
          requests.set(context, incoming);
          // Reading `req.body` would have srvx start the web stream (and its copies): nothing reads it now.
          Object.defineProperty(req, 'body', { value: null });
        }
        return super.send(req, context, headers);
      }

      protected override writeToStore(
        body: ReadableStream | null,
        upload: Upload,
        maxBytes: number,
        context: CancellationContext,
      ): Promise<number> {
        const incoming = requests.get(context);
        if (!incoming) return super.writeToStore(body, upload, maxBytes, context);
        return store.writeRequest(incoming, upload, maxBytes, context.signal);
      }
    }
    return new DirectBodyHandler(server.datastore, server.options) as unknown as H;
  };

  server.handlers.PATCH = direct(server.handlers.PATCH);
  server.handlers.POST = direct(server.handlers.POST);
}
