import type { GatewayRoute } from './gateway.ts';
import type { MountedService } from './service.ts';
import { safeupdateRefusal } from './postgrest-safeupdate.ts';

const pathOf = (subpath: string) => subpath.split('?')[0] ?? '/';

/** GoTrue paths Kong routes without key-auth (`auth-v1-open`, `auth-v1-open-callback`, `…-authorize`). */
function isOpenAuthPath(subpath: string): boolean {
  return /^\/(verify|callback|authorize)(\/|$)/.test(pathOf(subpath));
}

/**
 * Storage URLs a browser opens with no headers at all: public objects, signed URLs (the token is the
 * credential) and signed uploads. storage-api serves them without a JWT; everything else needs a key.
 */
function isKeylessStoragePath(subpath: string): boolean {
  return /^\/(object|render\/image)\/(public|sign)\/|^\/object\/info\/public\/|^\/object\/upload\/sign\/|^\/upload\/resumable\/sign(\/|$)/.test(
    pathOf(subpath),
  );
}

/**
 * The routes of the CLI's Kong config. `keyAuth` (default) refuses a request that carries no key at all, as
 * hosted Supabase's gateway does; without it every route is open, as under `supabase start`, whose Kong has no
 * key-auth plugin (postgrest-js's own suite calls /rest/v1 with no apikey).
 */
export function gatewayRoutes(
  upstreams: {
    auth: MountedService;
    storage: MountedService;
    realtime: MountedService;
    functions: MountedService;
    postgrestUrl: string;
    postgrestAdminUrl: string;
  },
  keyAuth: boolean,
): GatewayRoute[] {
  const key = (rule: GatewayRoute['requireKey']): GatewayRoute['requireKey'] => (keyAuth ? rule : false);
  return [
    // Kong's "auth-v1-open" routes: browser redirects (e-mail links, OAuth) carry no key, and GoTrue
    // sees its own path (/verify, /callback, /authorize), never `/`.
    {
      prefix: '/auth/v1',
      rewriteAuthorization: (_method, subpath) => !isOpenAuthPath(subpath),
      requireKey: key((_method, subpath) => !isOpenAuthPath(subpath)),
      apikeyVerbatim: true,
      upstream: upstreams.auth,
    },
    {
      prefix: '/rest/v1',
      rewriteAuthorization: true,
      requireKey: key(true),
      refuse: safeupdateRefusal,
      // As Kong's 60 s upstream timeout on hosted: a PostgREST that stops answering (stalled on a busy machine)
      // ends its callers' requests with an error instead of holding them, and a function's with them.
      upstream: { kind: 'proxy', target: upstreams.postgrestUrl, timeoutMs: 60_000 },
    },
    {
      prefix: '/rest-admin/v1',
      rewriteAuthorization: false,
      requireKey: false,
      upstream: { kind: 'proxy', target: upstreams.postgrestAdminUrl },
    },
    {
      prefix: '/storage/v1',
      rewriteAuthorization: true,
      requireKey: key((_method, subpath) => !isKeylessStoragePath(subpath)),
      upstream: upstreams.storage,
    },
    { prefix: '/realtime/v1', rewriteAuthorization: true, requireKey: key(true), upstream: upstreams.realtime },
    // Functions with verify_jwt = false are public on Supabase (webhooks): the runtime decides, not the key.
    { prefix: '/functions/v1', rewriteAuthorization: true, requireKey: false, upstream: upstreams.functions },
  ];
}
