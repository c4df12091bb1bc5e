import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';

/**
 * The reverse proxy of the gateway (PostgREST, graphql) and of the functions service (Deno): bodies stream
 * both ways, hop-by-hop headers stay on their own hop (RFC 9110 7.6.1).
 */

export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

export interface ProxyOptions {
  /** Where to send the request: origin plus path and query. */
  target: URL;
  /** Extra request headers, e.g. Content-Profile for graphql. */
  headers?: Record<string, string>;
  /** Response headers to leave out besides the hop-by-hop ones (the gateway owns CORS). */
  dropResponseHeaders?: ReadonlySet<string>;
  timeoutMs?: number;
  /** Keep the client's Host (the functions runtime sees the gateway's origin, as on Supabase). */
  preserveHost?: boolean;
  /** Send the response head before the first body byte (server-sent events, streamed function output). */
  flushHeaders?: boolean | ((headers: IncomingHttpHeaders) => boolean);
  /** The upstream failed or timed out before answering; the response is still unsent. */
  onError: (error: Error, res: ServerResponse) => void;
}

export function proxyRequest(req: IncomingMessage, res: ServerResponse, options: ProxyOptions): void {
  const { target } = options;
  const headers: OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP_HEADERS.has(key) && value !== undefined) headers[key] = value;
  }
  Object.assign(headers, options.headers);
  if (!options.preserveHost) headers.host = target.host;
  const upstreamReq = http.request(
    {
      hostname: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      method: req.method,
      headers,
    },
    (upstreamRes) => {
      const responseHeaders: OutgoingHttpHeaders = {};
      for (const [key, value] of Object.entries(upstreamRes.headers)) {
        if (HOP_BY_HOP_HEADERS.has(key) || options.dropResponseHeaders?.has(key) || value === undefined) continue;
        responseHeaders[key] = value;
      }
      res.writeHead(upstreamRes.statusCode ?? 502, responseHeaders);
      const flush = options.flushHeaders;
      if (typeof flush === 'function' ? flush(upstreamRes.headers) : flush) res.flushHeaders();
      upstreamRes.pipe(res);
      upstreamRes.on('error', () => res.destroy());
    },
  );
  if (options.timeoutMs) {
    upstreamReq.setTimeout(options.timeoutMs, () => upstreamReq.destroy(new Error('upstream timeout')));
  }
  upstreamReq.on('error', (error) => {
    if (!res.headersSent) options.onError(error, res);
    else res.destroy();
  });
  req.on('aborted', () => upstreamReq.destroy());
  req.pipe(upstreamReq);
}
