import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Pool } from 'pg';
import type { JwtKeys } from './jwt.ts';

/**
 * What every in-process service (auth, storage, realtime) receives from the stack.
 * `adminPool` connects as the cluster superuser (like Supabase's own services do); services that must
 * honour RLS switch role inside a transaction (`set local role …`, `set_config('request.jwt.claims', …, true)`).
 */
export interface ServiceContext {
  adminPool: Pool;
  /** postgres://supabase_admin:…@host:port/postgres, for services that need their own connections. */
  adminDbUrl: string;
  /** The legacy HS256 secret (storage's signed URLs are signed with it). */
  jwtSecret: string;
  /** Every key a token may be signed with (the secret and `signing_keys_path`'s), for verifying and signing. */
  jwtKeys: JwtKeys;
  anonKey: string;
  serviceRoleKey: string;
  /** Public origin of the gateway, e.g. http://127.0.0.1:54321 (no trailing slash). */
  apiUrl: string;
  /** Directory the service may keep its own files in (created by the stack, survives restarts). */
  dataDir: string;
  log: (message: string) => void;
}

/**
 * A service mounted by the gateway under a prefix. `subpath` is the request path with the prefix
 * stripped (always starts with '/', query string kept), e.g. `/token?grant_type=password` for
 * `/auth/v1/token?grant_type=password`. The gateway has already answered CORS preflights and set
 * CORS headers; the handler must stream bodies and must not buffer large uploads.
 */
export interface MountedService {
  handle(req: IncomingMessage, res: ServerResponse, subpath: string): void | Promise<void>;
  handleUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer, subpath: string): void;
  close(): Promise<void>;
}
