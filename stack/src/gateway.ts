import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { MountedService } from './service.ts';
import { sendJson } from './http/json.ts';
import { proxyRequest } from './http/proxy.ts';
import { rememberReceivedHeaders } from './http/received-headers.ts';

/**
 * One origin for every Supabase API, routed like the Kong config of `supabase start`.
 * The gateway owns CORS: it answers preflights itself and sets
 * `Access-Control-Allow-Origin: *` exactly once on every response.
 */

const EXPOSED_HEADERS = [
  'Content-Range',
  'Range-Unit',
  'Content-Location',
  'Location',
  'X-Total-Count',
  'Link',
  'X-Supabase-Api-Version',
  'x-relay-error',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Expires',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Tus-Max-Size',
  'ETag',
  'Content-Disposition',
  'Content-Length',
  'Content-Type',
  'X-Transformations',
].join(', ');

const PREFLIGHT_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT';

/** CORS response headers of an upstream: the gateway sets its own, exactly once. */
const UPSTREAM_CORS_HEADERS = new Set([
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-credentials',
]);

export interface UpstreamProxy {
  kind: 'proxy';
  target: string;
  /** Extra request headers, e.g. Content-Profile for graphql. */
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface GatewayRoute {
  prefix: string;
  /** Whether to derive `Authorization` from `apikey` when the request has no usable bearer token. */
  rewriteAuthorization: boolean | ((method: string, subpath: string) => boolean);
  /**
   * Whether a request without `apikey` (header or query) and without `Authorization` is refused with 401,
   * as the key-auth plugin of Supabase's gateway does. A function decides per request (storage serves
   * public and signed URLs to browsers, which send no headers).
   */
  requireKey: boolean | ((method: string, subpath: string) => boolean);
  /** An answer the hosted platform gives before the upstream runs anything (e.g. pg-safeupdate's). */
  refuse?: (method: string, subpath: string) => { status: number; body: Record<string, unknown> } | undefined;
  /**
   * Copy a JWT `apikey` into `Authorization` as it is, without "Bearer ", as the CLI's Kong template does
   * (`… or headers.apikey`). GoTrue then answers a call that needs a user (MFA, /user) and has only the apikey
   * with 401 no_authorization, as under `supabase start`.
   */
  apikeyVerbatim?: boolean;
  upstream: MountedService | UpstreamProxy;
}

export interface GatewayOptions {
  routes: GatewayRoute[];
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
  log: (message: string) => void;
}

function isProxy(upstream: MountedService | UpstreamProxy): upstream is UpstreamProxy {
  return (upstream as UpstreamProxy).kind === 'proxy';
}

/** Kong key-auth's answer when a request carries no credential at all (hosted Supabase says exactly this). */
const NO_API_KEY = {
  message: 'No API key found in request',
  hint: 'No `apikey` request header or url param was found.',
};

function carriesKey(req: IncomingMessage, url: string): boolean {
  if (headerValue(req.headers.apikey) || headerValue(req.headers.authorization)) return true;
  return new URL(url, 'http://gateway.local').searchParams.has('apikey');
}

type RouteRule = boolean | ((method: string, subpath: string) => boolean);

const applies = (rule: RouteRule, method: string, subpath: string): boolean =>
  typeof rule === 'function' ? rule(method, subpath) : rule;

const keyRequired = (route: GatewayRoute, method: string, subpath: string) =>
  applies(route.requireKey, method, subpath);

/** Forces the gateway's CORS headers over whatever a handler sets, so they appear exactly once. */
function enforceCors(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    for (const arg of rest) {
      if (arg && typeof arg === 'object' && !Array.isArray(arg)) {
        for (const key of Object.keys(arg)) {
          const lower = key.toLowerCase();
          if (
            lower === 'access-control-allow-origin' ||
            lower === 'access-control-expose-headers' ||
            lower === 'access-control-allow-credentials'
          ) {
            delete (arg as Record<string, unknown>)[key];
          }
        }
      }
    }
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    return writeHead(status, ...rest);
  }) as ServerResponse['writeHead'];
}

/** Makes `server` the API gateway: one origin routing to every service, with Kong's key and CORS handling. */
export function createGateway(server: http.Server, options: GatewayOptions): void {
  const routes = [...options.routes].sort((a, b) => b.prefix.length - a.prefix.length);

  const authorizationFor = (req: IncomingMessage, verbatim: boolean): string | undefined => {
    const authorization = req.headers.authorization;
    if (authorization && !/^bearer sb_/i.test(authorization)) return authorization;
    const apikey = headerValue(req.headers.apikey) ?? authorization?.replace(/^bearer /i, '');
    if (!apikey) return undefined;
    if (apikey === options.secretKey) return `Bearer ${options.serviceRoleKey}`;
    if (apikey === options.publishableKey) return `Bearer ${options.anonKey}`;
    return verbatim && !authorization ? apikey : `Bearer ${apikey}`;
  };

  const matchRoute = (url: string) => {
    const pathname = url.split('?')[0] ?? '/';
    for (const route of routes) {
      if (pathname === route.prefix || pathname.startsWith(`${route.prefix}/`)) {
        const rest = url.slice(route.prefix.length);
        return { route, subpath: rest.startsWith('/') ? rest : `/${rest}` };
      }
    }
    return null;
  };

  // The server listens from the stack's first moment, answering that it is starting; from now on it routes.
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    rememberReceivedHeaders(req);
    const url = req.url ?? '/';
    if (req.method === 'OPTIONS' && req.headers.origin && req.headers['access-control-request-method']) {
      res.writeHead(200, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': PREFLIGHT_METHODS,
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '',
        'Content-Length': '0',
      });
      res.end();
      return;
    }
    enforceCors(res);
    if (url === '/health' || url === '/health/') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('OK');
      return;
    }
    const match = matchRoute(url);
    if (!match) {
      sendJson(res, 404, { message: 'no Route matched with those values' });
      return;
    }
    const { route, subpath } = match;
    if (keyRequired(route, req.method ?? 'GET', subpath) && !carriesKey(req, url)) {
      sendJson(res, 401, NO_API_KEY);
      return;
    }
    const refusal = route.refuse?.(req.method ?? 'GET', subpath);
    if (refusal) {
      sendJson(res, refusal.status, refusal.body);
      return;
    }
    if (applies(route.rewriteAuthorization, req.method ?? 'GET', subpath)) {
      const authorization = authorizationFor(req, route.apikeyVerbatim ?? false);
      if (authorization) setRequestHeader(req, 'authorization', authorization);
    }
    addForwardedHeaders(req, route.prefix);
    if (isProxy(route.upstream)) {
      proxyTo(req, res, route.upstream, subpath, options.log);
      return;
    }
    Promise.resolve(route.upstream.handle(req, res, subpath)).catch((error: unknown) => {
      options.log(`gateway: ${route.prefix} handler failed: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal Server Error' });
      else res.destroy();
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const match = matchRoute(req.url ?? '/');
    const upstream = match?.route.upstream;
    if (!match || !upstream || isProxy(upstream) || !upstream.handleUpgrade) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // No key check here: Realtime refuses an upgrade without `apikey` itself (401 "API key is missing").
    upstream.handleUpgrade(req, socket, head, match.subpath);
  });

  // Uploads of 1 GB over slow hotel networks: never time a request out at the gateway.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;
}

/**
 * Sets a request header for in-process handlers. Some (e.g. @tus/server through srvx) read
 * `rawHeaders` rather than `headers`, so both must agree.
 */
function setRequestHeader(req: IncomingMessage, name: string, value: string): void {
  req.headers[name] = value;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === name) {
      req.rawHeaders.splice(i, 2);
      i -= 2;
    }
  }
  req.rawHeaders.push(name, value);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function addForwardedHeaders(req: IncomingMessage, prefix: string): void {
  const host = req.headers.host ?? '127.0.0.1';
  const port = host.split(':')[1];
  const remote = req.socket.remoteAddress ?? '';
  const forwardedFor = headerValue(req.headers['x-forwarded-for']);
  setRequestHeader(req, 'x-forwarded-host', headerValue(req.headers['x-forwarded-host']) ?? host);
  setRequestHeader(req, 'x-forwarded-proto', headerValue(req.headers['x-forwarded-proto']) ?? 'http');
  setRequestHeader(req, 'x-forwarded-port', headerValue(req.headers['x-forwarded-port']) ?? port ?? '80');
  setRequestHeader(req, 'x-forwarded-prefix', prefix);
  setRequestHeader(req, 'x-forwarded-for', forwardedFor ? `${forwardedFor}, ${remote}` : remote);
  setRequestHeader(req, 'x-real-ip', headerValue(req.headers['x-real-ip']) ?? remote);
}

function proxyTo(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: UpstreamProxy,
  subpath: string,
  log: (m: string) => void,
) {
  proxyRequest(req, res, {
    target: new URL(subpath, upstream.target),
    headers: upstream.headers,
    dropResponseHeaders: UPSTREAM_CORS_HEADERS,
    timeoutMs: upstream.timeoutMs,
    flushHeaders: (headers) => /text\/event-stream/.test(String(headers['content-type'] ?? '')),
    onError: (error) => {
      log(`gateway: upstream ${upstream.target} failed: ${error.message}`);
      sendJson(res, 502, { message: 'An invalid response was received from the upstream server' });
    },
  });
}
