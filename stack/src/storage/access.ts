import type { IncomingMessage } from 'node:http';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { bearerToken, verifyJwt, type Claims, type JwtKeys } from '../jwt.ts';
import { errors, fromDatabaseError, StorageError } from './errors.ts';
import { callerSettings, setConfigStatement, withTransaction } from '../http/transaction.ts';

/** The caller as storage-api sees it: a verified JWT, its role and subject. */
export interface Caller {
  role: 'anon' | 'authenticated' | 'service_role';
  claims: Claims;
  jwt: string;
  /** `sub` when present: recorded as the object owner. */
  sub: string | null;
}

const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ownerUuid = (caller: Caller | null) => (caller?.sub && UUID.test(caller.sub) ? caller.sub : null);

/**
 * Verifies the bearer token. Routes that allow it (downloads of public objects) fall back to anon when the
 * token is missing or invalid; others answer AccessDenied with the verification error, as storage-api.
 */
export async function authenticate(
  req: IncomingMessage,
  keys: JwtKeys,
  anonKey: string,
  options: { allowInvalid?: boolean } = {},
): Promise<Caller> {
  // No token is not "anon": storage-api verifies the empty string and refuses it, except on the routes that
  // allow an invalid JWT (public downloads), which then run as anon.
  const token = bearerToken(req.headers.authorization) ?? '';
  try {
    const claims = await verifyJwt(token, keys);
    const role = typeof claims.role === 'string' ? claims.role : 'anon';
    if (!API_ROLES.has(role)) throw new Error(`role "${role}" is not allowed`);
    return {
      role: role as Caller['role'],
      claims,
      jwt: token,
      sub: typeof claims.sub === 'string' ? claims.sub : null,
    };
  } catch (error) {
    if (options.allowInvalid) {
      return { role: 'anon', claims: { role: 'anon' }, jwt: anonKey, sub: null };
    }
    throw errors.accessDenied((error as Error).message);
  }
}

/**
 * Runs `work` in a transaction as the caller, the way storage-api does: the role and JWT claims are set
 * for the transaction so the RLS policies on storage.objects and storage.buckets decide. The service role
 * has BYPASSRLS, exactly as on Supabase. Like storage-api, every Storage transaction (this one and
 * asService's) sets `storage.allow_delete_query`: storage.protect_delete refuses a row deleted with SQL
 * from anywhere else, since its bytes would stay behind.
 */
export async function asCaller<T>(
  pool: Pool,
  caller: Caller,
  operation: string,
  work: (db: PoolClient) => Promise<T>,
  options: { rollback?: boolean } = {},
): Promise<T> {
  return storageTransaction(pool, work, { ...options, settings: settingsOf(caller, operation) });
}

/**
 * One read as the caller in one round trip, for the requests a page makes by the dozen (a signature per
 * thumbnail): the settings and `statement` go as one simple query, which Postgres runs as one implicit
 * transaction. So the settings hold for the statement and end with it, and RLS, applied when the statement
 * is planned after they ran, decides as in asCaller. `statement` carries its values as escaped literals.
 */
export async function readAsCaller<R extends QueryResultRow>(
  pool: Pool,
  caller: Caller,
  operation: string,
  statement: string,
): Promise<R[]> {
  try {
    const results = (await pool.query(
      `${setConfigStatement(settingsOf(caller, operation))}; ${statement}`,
    )) as unknown as QueryResult<R>[];
    return results.at(-1)!.rows;
  } catch (error) {
    throw fromDatabaseError(error);
  }
}

/** What storage-api sets for a request's transaction: the caller's role and claims, and the operation. */
const settingsOf = (caller: Caller, operation: string) =>
  callerSettings(
    { role: caller.role, claims: caller.claims },
    {
      'request.jwt': caller.jwt,
      'request.jwt.claim.sub': caller.sub ?? '',
      'storage.operation': operation,
      'storage.allow_delete_query': 'true',
    },
  );

/** Runs `work` in a transaction as the storage service itself (bypasses RLS). */
export const asService = <T>(pool: Pool, work: (db: PoolClient) => Promise<T>): Promise<T> =>
  storageTransaction(pool, work, { settings: { 'storage.allow_delete_query': 'true' } });

/** A transaction whose database errors reach the client as the storage errors storage-api gives for them. */
async function storageTransaction<T>(
  pool: Pool,
  work: (db: PoolClient) => Promise<T>,
  options: { rollback?: boolean; settings?: Record<string, string> } = {},
): Promise<T> {
  try {
    return await withTransaction(pool, work, options);
  } catch (error) {
    if (error instanceof StorageError) throw error;
    throw fromDatabaseError(error);
  }
}
