import { describe, expect, it } from 'vitest';
import { adminDb } from '../../tests/helpers/clients.ts';
import { seedAccounts } from '../../tests/helpers/seed.ts';

/**
 * auth.uid() must read the JSON claims even on a connection where an earlier transaction set
 * request.jwt.claim.sub locally (Storage does): afterwards that setting is '' rather than NULL.
 */
describe('auth helpers on a reused connection', () => {
  it('fall back to request.jwt.claims when the per-claim settings were left empty', async () => {
    const db = await adminDb();
    try {
      await db.query('begin');
      await db.query(`select set_config('request.jwt.claim.sub', 'a0000000-0000-4000-8000-000000000009', true)`);
      await db.query('commit');
      expect((await db.query(`select current_setting('request.jwt.claim.sub', true) as sub`)).rows[0].sub).toBe('');

      await db.query('begin');
      await db.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({
          sub: seedAccounts.ADMIN.id,
          role: 'authenticated',
          email: seedAccounts.ADMIN.email,
        }),
      ]);
      const { rows } = await db.query(
        `select auth.uid() as uid, auth.role() as role, auth.email() as email, auth.jwt() ->> 'sub' as jwt_sub`,
      );
      await db.query('commit');
      expect(rows[0]).toEqual({
        uid: seedAccounts.ADMIN.id,
        role: 'authenticated',
        email: seedAccounts.ADMIN.email,
        jwt_sub: seedAccounts.ADMIN.id,
      });
    } finally {
      await db.end();
    }
  });
});
