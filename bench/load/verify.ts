import pg from 'pg';
import { micros, type AcceptedSave, type EditLedger } from './edits.ts';
import { sleep } from './metrics.ts';
import type { SentUpload } from './uploads.ts';

/**
 * The end of the run, read straight from the database: no accepted save overwrote another unseen, every
 * upload's stored bytes have the SHA-256 the person's disk had, and the server's queue worked everything off.
 */
async function withDb<T>(adminDbUrl: string, work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: adminDbUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

export interface EditCheck {
  accepted: number;
  conflicts: number;
  /** Accepted saves made on a version another accepted save had already replaced. */
  overwritten: string[];
  /** Files whose stored name is not the last accepted save's. */
  lost: string[];
}

/**
 * Two accepted saves that sent the same expectation means the second replaced the first without its author
 * having seen it: a lost update. And each file must hold what its last accepted save wrote.
 */
export async function checkEdits(adminDbUrl: string, ledger: EditLedger): Promise<EditCheck> {
  const byFile = new Map<string, AcceptedSave[]>();
  for (const save of ledger.accepted) byFile.set(save.fileId, [...(byFile.get(save.fileId) ?? []), save]);
  const overwritten: string[] = [];
  const lost: string[] = [];
  const names = await withDb(adminDbUrl, async (db) => {
    const { rows } = await db.query<{ id: string; name_es: string }>(
      'select id, name_es from public.files where id = any($1::uuid[])',
      [[...byFile.keys()]],
    );
    return new Map(rows.map((row) => [row.id, row.name_es]));
  });
  for (const [fileId, saves] of byFile) {
    const seen = new Map<bigint, string>();
    for (const save of saves) {
      const expected = micros(save.expected);
      const earlier = seen.get(expected);
      if (earlier) overwritten.push(`${fileId}: ${save.by} saved over ${earlier}'s save unseen`);
      seen.set(expected, save.by);
    }
    const last = saves.reduce((a, b) => (micros(b.saved) > micros(a.saved) ? b : a));
    const held = names.get(fileId);
    const unanswered = ledger.unanswered.some((save) => save.fileId === fileId && save.nameEs === held);
    if (held !== last.nameEs && !unanswered)
      lost.push(`${fileId}: holds "${held}", the last accepted save wrote "${last.nameEs}"`);
  }
  return { accepted: ledger.accepted.length, conflicts: ledger.conflicts, overwritten, lost };
}

export interface UploadCheck {
  uploads: number;
  bytes: number;
  intact: number;
  /** Uploads whose checksum differs, is missing, or whose processing failed. */
  broken: string[];
}

/** Waits (up to `timeoutMs`) until every upload is processed, then compares its checksum with the sent one. */
export async function checkUploads(adminDbUrl: string, uploads: SentUpload[], timeoutMs: number) {
  return withDb(adminDbUrl, async (db): Promise<UploadCheck> => {
    const ids = uploads.map((upload) => upload.fileId);
    const deadline = Date.now() + timeoutMs;
    type Row = { id: string; checksum: string | null; processing: boolean; processing_error: string | null };
    const read = async () =>
      (
        await db.query<Row>(
          'select id, checksum, processing, processing_error from public.files where id = any($1::uuid[])',
          [ids],
        )
      ).rows;
    let rows = await read();
    while (rows.some((row) => row.processing) && Date.now() < deadline) {
      await sleep(1000);
      rows = await read();
    }
    const stored = new Map(rows.map((row) => [row.id, row]));
    const broken: string[] = [];
    for (const upload of uploads) {
      const row = stored.get(upload.fileId);
      if (!row) broken.push(`${upload.fileId}: no file record`);
      else if (row.processing) broken.push(`${upload.fileId}: still processing`);
      else if (row.processing_error) broken.push(`${upload.fileId}: ${row.processing_error}`);
      else if (row.checksum !== upload.sha256) broken.push(`${upload.fileId}: checksum ${row.checksum}`);
    }
    return {
      uploads: uploads.length,
      bytes: uploads.reduce((sum, upload) => sum + upload.bytes, 0),
      intact: uploads.length - broken.length,
      broken,
    };
  });
}

export interface JobCheck {
  done: number;
  failed: string[];
  /** Jobs still due or running once the queue settled (delayed ones are made due first). */
  unfinished: number;
}

/**
 * The server's queue after the run: delayed jobs (the analytics refresh waits a minute) are made due, then
 * waited for (up to `timeoutMs`); every job created during the run must be done.
 */
export async function checkJobs(adminDbUrl: string, since: Date, timeoutMs: number): Promise<JobCheck> {
  return withDb(adminDbUrl, async (db) => {
    await db.query(`update public.server_jobs set run_after = now() where state = 'pending' and run_after > now()`);
    const deadline = Date.now() + timeoutMs;
    // Due or running: a job that queues itself for later (expire_rights, for the next Madrid midnight) is
    // pending again as soon as it ran, and is not work left over.
    const busy = async () =>
      (
        await db.query<{ count: number }>(
          `select count(*)::int as count from public.server_jobs
            where state = 'running' or (state = 'pending' and run_after <= now())`,
        )
      ).rows[0]!.count;
    let unfinished = await busy();
    while (unfinished > 0 && Date.now() < deadline) {
      await sleep(1000);
      unfinished = await busy();
    }
    const failed = await db.query<{ kind: string; last_error: string | null }>(
      `select kind, last_error from public.server_jobs where state = 'failed' and created_at >= $1`,
      [since],
    );
    const done = await db.query<{ count: number }>(
      `select count(*)::int as count from public.server_jobs where state = 'done' and created_at >= $1`,
      [since],
    );
    return {
      done: done.rows[0]!.count,
      failed: failed.rows.map((row) => `${row.kind}: ${row.last_error}`),
      unfinished,
    };
  });
}
