import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Polls until `probe` returns a value (not undefined); the test's own timeout bounds the wait, or `within` one
 * of its own, past which it fails with what `explain` finds (what is stuck, and why) instead of a bare timeout.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  within?: { ms: number; explain: () => Promise<string> },
): Promise<T> {
  const deadline = within ? Date.now() + within.ms : Infinity;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`still waiting after ${within!.ms} ms: ${await within!.explain()}`);
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

/**
 * Waits until the trash jobs of these files (moves to and from the trash, removals) are done; one still pending
 * after a minute fails the test with the jobs and the state of the queue's `trash_objects` run.
 */
export async function trashJobsDone(db: pg.Client, fileIds: string[]): Promise<void> {
  const pending = async () =>
    (
      await db.query(
        `select id, action, bucket_id, object_path, attempts, last_error from public.trash_jobs
          where pending and file_id = any($1::uuid[]) order by id`,
        [fileIds],
      )
    ).rows;
  await eventually(async () => ((await pending()).length === 0 ? true : undefined), {
    ms: 60_000,
    explain: async () => {
      const { rows: runs } = await db.query(
        `select id, state, attempts, run_after, locked_until, last_error from public.server_jobs
          where kind = 'trash_objects' and state in ('pending', 'running') order by id`,
      );
      return JSON.stringify({ now: new Date(), pending: await pending(), runs });
    },
  });
}
