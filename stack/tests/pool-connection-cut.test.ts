import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { checkOut, withTransaction } from '../src/http/transaction.ts';
import { eventually } from '../../tests/helpers/checks.ts';
import { adminDb, stackInfo } from '../../tests/helpers/clients.ts';

/**
 * A Postgres restart under load cuts connections that Storage or Realtime hold checked out between two
 * queries. pg-pool does not listen for errors on those, so the cut used to be an unhandled 'error' event
 * that ended the stack's whole process (found by `npm run bench -- load --faults`). Here a connection is cut
 * while checked out: the process goes on, the connection is dropped, and the pool serves the next request.
 */
describe('a pooled connection cut while checked out', () => {
  it('keeps the process alive and the pool usable', async () => {
    const pool = new pg.Pool({ connectionString: stackInfo().adminDbUrl, max: 1 });
    pool.on('error', () => {});
    const admin = await adminDb();
    try {
      const db = await checkOut(pool);
      const { rows } = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      const lost = await eventually(async () => db.lost);
      expect(lost.message).toMatch(/terminat/i);
      db.release(db.lost);

      const answer = await withTransaction(pool, (next) => next.query<{ one: number }>('select 1 as one'));
      expect(answer.rows[0]!.one).toBe(1);
    } finally {
      await admin.end();
      await pool.end();
    }
  });
});
