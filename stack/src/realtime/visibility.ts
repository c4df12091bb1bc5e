import type pg from 'pg';

/**
 * Whether a fresh snapshot sees transaction `xid` (the 32-bit id pgoutput's BEGIN carries) as finished.
 * The 64-bit id is rebuilt from the snapshot's xmax: the transaction is recent, so it belongs to xmax's
 * epoch unless that would put it more than 2^31 ahead of xmax, in which case it is from the epoch before.
 */
const VISIBLE_SQL = `
  with snapshot as (select pg_current_snapshot() as snap),
       bounds as (select snap, pg_snapshot_xmax(snap)::text::bigint as xmax from snapshot),
       candidate as (select snap, xmax, ((xmax >> 32) << 32) | $1::bigint as xid from bounds)
  select pg_visible_in_snapshot(
           (case when xid > xmax + 2147483648 then xid - 4294967296 else xid end)::text::xid8, snap) as visible
    from candidate`;

const POLL_INTERVAL_MS = 2;

/**
 * Waits until transactions started from now on see `xid` as committed, up to `timeoutMs`.
 *
 * Why: Postgres flushes a commit record to the WAL before the committing backend leaves the proc array.
 * The WAL sender may decode and send the transaction in between, and a snapshot taken then still counts
 * it as running: an RLS check of a just-inserted row as a subscriber would not find it and the change
 * would be withheld from everyone. The window is microseconds on an idle machine and grows under load.
 * Returns whether the transaction became visible (false only on timeout).
 */
export async function waitForCommitVisible(pool: pg.Pool, xid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query<{ visible: boolean }>(VISIBLE_SQL, [xid]);
    if (rows[0]?.visible === true) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
