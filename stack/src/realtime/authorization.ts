import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Identity } from './access.ts';
import { actAs, withTransaction } from '../http/transaction.ts';

/**
 * Realtime Authorization for private channels (Realtime's `Authorization` module): RLS policies on
 * realtime.messages decide, evaluated as the subscriber (`role`, `request.jwt.claims`, `realtime.topic`
 * local to a transaction that is always rolled back, so no message is ever stored).
 * - read: probe rows for `broadcast` and `presence` are inserted as the service, then selected as the
 *   subscriber; a visible probe grants reading that extension.
 * - write: a row is inserted as the subscriber; success grants writing that extension.
 */

export type Extension = 'broadcast' | 'presence';

export interface ReadPolicies {
  broadcast: boolean;
  presence: boolean;
}

/** As the subscriber, in a transaction that is always rolled back: nothing is ever stored. */
const asSubscriber = <T>(
  pool: pg.Pool,
  identity: Identity,
  topic: string,
  work: (db: pg.PoolClient) => Promise<T>,
  before?: (db: pg.PoolClient) => Promise<void>,
): Promise<T> =>
  withTransaction(
    pool,
    async (db) => {
      await before?.(db);
      await actAs(db, identity, { 'realtime.topic': topic });
      return work(db);
    },
    { rollback: true },
  );

export async function readPolicies(pool: pg.Pool, identity: Identity, topic: string): Promise<ReadPolicies> {
  const probes = { broadcast: randomUUID(), presence: randomUUID() };
  const visible = await asSubscriber(
    pool,
    identity,
    topic,
    async (db) => {
      const { rows } = await db.query<{ id: string }>('select id from realtime.messages where id = any($1::uuid[])', [
        Object.values(probes),
      ]);
      return new Set(rows.map((row) => row.id));
    },
    async (db) => {
      await db.query(
        `insert into realtime.messages (id, topic, extension) values ($1, $3, 'broadcast'), ($2, $3, 'presence')`,
        [probes.broadcast, probes.presence, topic],
      );
    },
  ).catch(() => new Set<string>());
  return { broadcast: visible.has(probes.broadcast), presence: visible.has(probes.presence) };
}

export async function canWrite(pool: pg.Pool, identity: Identity, topic: string, extension: Extension) {
  return asSubscriber(pool, identity, topic, async (db) => {
    await db.query('insert into realtime.messages (topic, extension) values ($1, $2)', [topic, extension]);
    return true;
  }).catch(() => false);
}
