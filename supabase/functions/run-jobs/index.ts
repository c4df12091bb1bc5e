// The server's job runner: claims due jobs from public.server_jobs (queued by database triggers in the
// transaction of each change), runs each one, and records done / retry-with-backoff / failed. Called by
// pg_cron + pg_net on hosted Supabase and by the local stack's job worker, with the service role key;
// nobody else may call it. Returns when the queue has nothing due or its time budget is spent (the next
// call goes on).
import { HttpError, json, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/auth.ts';
import { FileNotFound, processFile } from '../_shared/jobs/process-file.ts';
import { PermanentProcessingError } from '../_shared/jobs/processing-errors.ts';
import { regenerateFeed } from '../_shared/jobs/public-feed.ts';
import { moveTrashedObjects } from '../_shared/jobs/trash.ts';
import type { SupabaseClient } from '@supabase/supabase-js';

const BATCH = 5;
const LEASE_SECONDS = 300;
const TIME_BUDGET_MS = 100_000;

interface ServerJob {
  id: number;
  kind: 'process_upload' | 'regenerate_feed' | 'trash_objects' | 'purge_trash' | 'refresh_analytics';
  file_id: string | null;
  attempts: number;
}

/** The token was verified by the gateway (verify_jwt); only the service role's may run jobs. */
function requireServiceRole(request: Request) {
  const token = request.headers.get('Authorization')?.replace(/^Bearer\s+/i, '') ?? '';
  let role: unknown;
  try {
    const payload = token.split('.')[1] ?? '';
    role = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))).role;
  } catch {
    role = undefined;
  }
  if (role !== 'service_role') throw new HttpError(403, 'NOT_ADMIN', 'No tienes permiso para hacer esto.');
}

async function runJob(admin: SupabaseClient, job: ServerJob): Promise<void> {
  switch (job.kind) {
    case 'process_upload':
      try {
        await processFile(admin, job.file_id!);
      } catch (error) {
        // Deleted before its turn came: nothing left to process.
        if (!(error instanceof FileNotFound)) throw error;
      }
      return;
    case 'regenerate_feed':
      await regenerateFeed(admin);
      return;
    case 'trash_objects': {
      const run = await moveTrashedObjects(admin);
      const failed = run.jobs.filter((job) => !job.done);
      if (failed.length) {
        throw new Error(`${failed.length} object(s) could not be moved to the trash: ${failed[0]!.error}`);
      }
      return;
    }
    case 'refresh_analytics': {
      // The analysts' materialized views, after tags or their links changed.
      const refreshed = await admin.rpc('refresh_analytics');
      if (refreshed.error) throw refreshed.error;
      return;
    }
    case 'purge_trash': {
      // Files in the Papelera for 30 days: their rows go now, their objects by the trash jobs this queues.
      const purged = await admin.rpc('purge_expired_trash');
      if (purged.error) throw purged.error;
      return;
    }
  }
}

serve(async (request) => {
  requireServiceRole(request);
  const admin = serviceClient();
  const started = Date.now();
  const ran: Array<{ id: number; kind: string; state: string; error: string | null }> = [];
  while (Date.now() - started < TIME_BUDGET_MS) {
    const claimed = await admin.rpc('claim_server_jobs', { p_limit: BATCH, p_lease_seconds: LEASE_SECONDS });
    if (claimed.error) throw claimed.error;
    const jobs = claimed.data as ServerJob[];
    if (!jobs.length) break;
    for (const job of jobs) {
      let failure: string | null = null;
      let permanent = false;
      try {
        await runJob(admin, job);
      } catch (error) {
        failure = (error instanceof Error ? error.message : String(error)) || 'unknown error';
        // Bytes that can never be processed: no retries, the file says 'No se pudo procesar' now.
        permanent = error instanceof PermanentProcessingError;
        console.error(`server job ${job.id} (${job.kind}) failed on attempt ${job.attempts}: ${failure}`);
      }
      const finished = permanent
        ? await admin.rpc('fail_server_job', { p_id: job.id, p_error: failure })
        : await admin.rpc('finish_server_job', { p_id: job.id, p_error: failure });
      if (finished.error) throw finished.error;
      // No row back: someone changed the job meanwhile (an operator marking it done, say).
      const state = (finished.data as { state: string | null } | null)?.state ?? 'changed';
      ran.push({ id: job.id, kind: job.kind, state, error: failure });
    }
  }
  return json(200, { ran: ran.length, jobs: ran });
});
