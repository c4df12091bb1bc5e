import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in one transaction on a pooled connection: committed when it succeeds (or always rolled back
 * with `rollback: true`, for checks that must leave nothing behind), rolled back when it throws.
 */
export async function withTransaction<T>(
  pool: Pool,
  work: (db: PoolClient) => Promise<T>,
  options: { rollback?: boolean } = {},
): Promise<T> {
  const db = await pool.connect();
  try {
    await db.query('begin');
    const result = await work(db);
    await db.query(options.rollback ? 'rollback' : 'commit');
    return result;
  } catch (error) {
    await db.query('rollback').catch(() => {});
    throw error;
  } finally {
    db.release();
  }
}

/** Makes the transaction run as an API role with the JWT's claims, as PostgREST does, so RLS decides. */
export async function actAs(
  db: PoolClient,
  identity: { role: string; claims: Record<string, unknown> },
  settings: Record<string, string> = {},
): Promise<void> {
  const entries = Object.entries({
    role: identity.role,
    'request.jwt.claim.role': identity.role,
    'request.jwt.claims': JSON.stringify(identity.claims),
    'request.jwt.claim.sub': typeof identity.claims.sub === 'string' ? identity.claims.sub : '',
    ...settings,
  });
  await db.query(
    `select ${entries.map((_, i) => `set_config($${i * 2 + 1}, $${i * 2 + 2}, true)`).join(', ')}`,
    entries.flat(),
  );
}
