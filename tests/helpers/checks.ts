import { createHash } from 'node:crypto';
import pg from 'pg';

/** Polls until `probe` returns a value (not undefined); the test's own timeout bounds the wait. */
export async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Hex sha256 of bytes or text, to compare stored objects with what was uploaded. */
export const sha256 = (data: string | Uint8Array | ArrayBuffer) =>
  createHash('sha256')
    .update(typeof data === 'string' ? data : new Uint8Array(data))
    .digest('hex');

/** One query on its own connection, for stacks a test starts itself (the shared stack has adminDb()). */
export async function queryOnce<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<T>(text, values)).rows;
  } finally {
    await db.end();
  }
}
