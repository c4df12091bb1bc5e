import pg, { type Pool, type PoolClient } from 'pg';

/**
 * Runs `work` in one transaction on a pooled connection: committed when it succeeds (or always rolled back
 * with `rollback: true`, for checks that must leave nothing behind), rolled back when it throws. `settings`
 * are set for the transaction (set_config(…, true)) in the same round trip as its `begin`.
 */
export async function withTransaction<T>(
  pool: Pool,
  work: (db: PoolClient) => Promise<T>,
  options: { rollback?: boolean; settings?: Record<string, string> } = {},
): Promise<T> {
  const db = await checkOut(pool);
  try {
    await db.query(beginWith(options.settings ?? {}));
    const result = await work(db);
    await db.query(options.rollback ? 'rollback' : 'commit');
    return result;
  } catch (error) {
    await db.query('rollback').catch(() => {});
    throw error;
  } finally {
    db.release(db.lost);
  }
}

/**
 * A pooled connection that survives its connection being cut while it is checked out. pg-pool listens for a
 * connection's errors only while it is idle; a Postgres restart that cuts a checked-out one between two
 * queries would otherwise be an unhandled 'error' event, which ends the stack's whole process. The query under
 * way fails on its own; the error is kept, and `release(db.lost)` then drops the connection instead of
 * pooling it.
 */
export async function checkOut(pool: Pool): Promise<PoolClient & { lost?: Error }> {
  const db: PoolClient & { lost?: Error } = await pool.connect();
  const onError = (error: Error) => {
    db.lost = error;
  };
  db.on('error', onError);
  const release = db.release.bind(db);
  db.release = (destroy?: Error | boolean) => {
    db.removeListener('error', onError);
    release(destroy);
  };
  return db;
}

/**
 * `begin` and the transaction's settings as one simple query: one round trip fewer for every Storage request
 * (on a busy machine each round trip waits its turn).
 */
function beginWith(settings: Record<string, string>): string {
  return Object.keys(settings).length === 0 ? 'begin' : `begin; ${setConfigStatement(settings)}`;
}

/**
 * `select set_config(…, true), …` with the values as escaped literals, for the simple query protocol, which
 * takes no parameters.
 */
export function setConfigStatement(settings: Record<string, string>): string {
  const calls = Object.entries(settings).map(
    ([name, value]) => `set_config(${pg.escapeLiteral(name)}, ${pg.escapeLiteral(value)}, true)`,
  );
  return `select ${calls.join(', ')}`;
}

/** The settings that make a transaction run as an API role with the JWT's claims, as PostgREST does, so RLS decides. */
export function callerSettings(
  identity: { role: string; claims: Record<string, unknown> },
  settings: Record<string, string> = {},
): Record<string, string> {
  return {
    role: identity.role,
    'request.jwt.claim.role': identity.role,
    'request.jwt.claims': JSON.stringify(identity.claims),
    'request.jwt.claim.sub': typeof identity.claims.sub === 'string' ? identity.claims.sub : '',
    ...settings,
  };
}

/** Switches a transaction already under way to the caller (for work that must run before the switch). */
export async function actAs(
  db: PoolClient,
  identity: { role: string; claims: Record<string, unknown> },
  settings: Record<string, string> = {},
): Promise<void> {
  await db.query(setConfigStatement(callerSettings(identity, settings)));
}
