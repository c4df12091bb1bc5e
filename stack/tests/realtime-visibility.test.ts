import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { waitForCommitVisible } from '../src/realtime/visibility.ts';
import { stackInfo } from '../../tests/helpers/clients.ts';

/**
 * Realtime waits for a decoded commit to be visible before checking RLS: a transaction still in the proc
 * array (as one is for a moment after its commit record reaches the WAL sender) looks exactly like one
 * that has not committed yet, which is what these tests hold open.
 */

let pool: pg.Pool;

beforeAll(() => {
  pool = new pg.Pool({ connectionString: stackInfo().adminDbUrl, max: 4 });
});

afterAll(async () => {
  await pool.end();
});

async function openTransaction() {
  const db = await pool.connect();
  await db.query('begin');
  const { rows } = await db.query<{ xid: string }>('select pg_current_xact_id()::text as xid');
  // pgoutput's BEGIN carries the 32-bit transaction id, without the epoch.
  const xid = Number(BigInt(rows[0]!.xid) % 2n ** 32n);
  return { db, xid };
}

describe('waiting for a decoded commit to be visible', () => {
  it('returns at once for a finished transaction', async () => {
    const { db, xid } = await openTransaction();
    await db.query('commit');
    db.release();
    await expect(waitForCommitVisible(pool, xid, 1000)).resolves.toBe(true);
  });

  it('waits while the transaction is still running, and returns when it ends', async () => {
    const { db, xid } = await openTransaction();
    let settled = false;
    const waiting = waitForCommitVisible(pool, xid, 10_000).then((visible) => {
      settled = true;
      return visible;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    await db.query('commit');
    db.release();
    await expect(waiting).resolves.toBe(true);
  });

  it('gives up after its timeout', async () => {
    const { db, xid } = await openTransaction();
    try {
      await expect(waitForCommitVisible(pool, xid, 100)).resolves.toBe(false);
    } finally {
      await db.query('rollback');
      db.release();
    }
  });
});
