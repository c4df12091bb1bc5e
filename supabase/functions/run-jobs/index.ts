// The server's job runner: claims due jobs from public.server_jobs (queued by database triggers in the
// transaction of each change), runs one step of each, and records done / next step / retry-with-backoff /
// failed. Called by pg_cron + pg_net on hosted Supabase and by the local stack's job worker, with the service
// role key; nobody else may call it. A request stops claiming once it has spent its budget (under half of an
// Edge Function's 2 s of CPU, with room for the step under way) and, if work is left, calls itself again, so
// a burst of jobs drains without waiting for the next scheduled call.
import { HttpError, json, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/auth.ts';
import { requestBudget } from '../_shared/budget.ts';
import { fetchWithDeadline, requestTimeoutMs, upstreamTimeoutMs } from '../_shared/deadline.ts';
import { FileNotFound, processFileStep, type ProcessProgress } from '../_shared/jobs/process-file.ts';
import { PermanentProcessingError } from '../_shared/jobs/processing-errors.ts';
import { updateFeed } from '../_shared/jobs/public-feed.ts';
import { moveTrashedObjects, TRASH_BATCH } from '../_shared/jobs/trash.ts';
import type { SupabaseClient } from '@supabase/supabase-js';

/** A claim's lease: no request outlives hosted's 150 s wall clock, so a job still leased past it was cut off. */
const LEASE_SECONDS = 150;
const CPU_BUDGET_MS = 500;
const WALL_BUDGET_MS = 30_000;
/** A step slower than this is logged: a worker's wall clock (150 s) ends a request that runs on too long. */
const SLOW_STEP_MS = 10_000;

interface ServerJob {
  id: number;
  kind: 'process_upload' | 'update_feed' | 'trash_objects' | 'purge_trash' | 'refresh_analytics' | 'expire_rights';
  file_id: string | null;
  attempts: number;
  progress: unknown;
}

/** What one step of a job leaves: nothing (the job is done), or where the next step starts. */
type StepOutcome = { next?: unknown };

/** An Error's message, or a PostgREST / Storage error object's (plain objects with a `message`). */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  return String(error);
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

async function runStep(admin: SupabaseClient, job: ServerJob): Promise<StepOutcome> {
  switch (job.kind) {
    case 'process_upload':
      try {
        const step = await processFileStep(admin, job.file_id!, (job.progress as ProcessProgress | null) ?? null);
        return step.done ? {} : { next: step.progress };
      } catch (error) {
        // Deleted before its turn came: nothing left to process.
        if (error instanceof FileNotFound) return {};
        throw error;
      }
    case 'update_feed': {
      const step = await updateFeed(admin);
      // Where the feed stands lives in the database (the pages still due), not in the job.
      return step.more ? { next: {} } : {};
    }
    case 'trash_objects': {
      const run = await moveTrashedObjects(admin);
      const failed = run.jobs.filter((job) => !job.done);
      if (failed.length) {
        throw new Error(`${failed.length} object(s) could not be moved to the trash: ${failed[0]!.error}`);
      }
      return run.processed === TRASH_BATCH ? { next: {} } : {};
    }
    case 'refresh_analytics': {
      // The analysts' materialized views, after tags or their links changed.
      const refreshed = await admin.rpc('refresh_analytics');
      if (refreshed.error) throw refreshed.error;
      return {};
    }
    case 'purge_trash': {
      // Files in the Papelera for 30 days: their rows go now, their objects by the trash jobs this queues.
      const purged = await admin.rpc('purge_expired_trash');
      if (purged.error) throw purged.error;
      return {};
    }
    case 'expire_rights': {
      // Just after Madrid's midnight: the feed pages of files whose rights expired yesterday are marked (the
      // update_feed job this queues rewrites them), and the job queues itself for the next midnight.
      const marked = await admin.rpc('mark_expired_rights_in_feed');
      if (marked.error) throw marked.error;
      return {};
    }
  }
}

/** Another request of this runner, after this one has answered (hosted's recursive calls). */
function callAgain(request: Request) {
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil(promise: Promise<unknown>): void } }).EdgeRuntime;
  const url = `${Deno.env.get('SUPABASE_URL')}/functions/v1/run-jobs`;
  runtime?.waitUntil(
    // The next request answers within its own request deadline; this one waits no longer than that.
    fetchWithDeadline(
      url,
      {
        method: 'POST',
        headers: { Authorization: request.headers.get('Authorization')!, 'Content-Type': 'application/json' },
        body: '{}',
      },
      requestTimeoutMs() + upstreamTimeoutMs(),
    ).then((response) => response.body?.cancel()),
  );
}

serve(async (request) => {
  requireServiceRole(request);
  const admin = serviceClient();
  const budget = requestBudget(CPU_BUDGET_MS, WALL_BUDGET_MS);
  const ran: Array<{ id: number; kind: string; state: string; error: string | null }> = [];
  let stoppedByBudget = false;
  for (;;) {
    if (budget.spent()) {
      stoppedByBudget = true;
      break;
    }
    const claimed = await admin.rpc('claim_server_jobs', { p_limit: 1, p_lease_seconds: LEASE_SECONDS });
    if (claimed.error) throw claimed.error;
    const job = (claimed.data as ServerJob[])[0];
    if (!job) break;
    let failure: string | null = null;
    let permanent = false;
    let outcome: StepOutcome = {};
    const stepStarted = Date.now();
    try {
      outcome = await runStep(admin, job);
    } catch (error) {
      failure = messageOf(error) || 'unknown error';
      // Bytes that can never be processed: no retries, the file says 'No se pudo procesar' now.
      permanent = error instanceof PermanentProcessingError;
      console.error(`server job ${job.id} (${job.kind}) failed on attempt ${job.attempts}: ${failure}`);
    }
    const stepMs = Date.now() - stepStarted;
    if (stepMs > SLOW_STEP_MS) console.warn(`server job ${job.id} (${job.kind}): one step took ${stepMs} ms`);
    const recorded =
      failure === null && outcome.next !== undefined
        ? await admin.rpc('continue_server_job', { p_id: job.id, p_progress: outcome.next })
        : permanent
          ? await admin.rpc('fail_server_job', { p_id: job.id, p_error: failure })
          : await admin.rpc('finish_server_job', { p_id: job.id, p_error: failure });
    if (recorded.error) throw recorded.error;
    // No row back: someone changed the job meanwhile (an operator marking it done, say).
    const state = (recorded.data as { state: string | null } | null)?.state ?? 'changed';
    ran.push({ id: job.id, kind: job.kind, state, error: failure });
  }
  if (stoppedByBudget) callAgain(request);
  const response = json(200, { ran: ran.length, jobs: ran, more: stoppedByBudget });
  response.headers.set('x-server-job', [...new Set(ran.map((job) => job.kind))].join(',') || 'none');
  return response;
});
