import pg from 'pg';

/**
 * The local stack's job worker: what pg_cron + pg_net do on hosted Supabase. It calls the `run-jobs` edge
 * function (the same code that does the work there) whenever server jobs are due: at once when a trigger
 * queues one (LISTEN server_jobs, notified at commit), and on a short poll for jobs whose backoff or
 * coalescing delay has passed. A call that ran out of its budget with work left calls run-jobs again itself
 * (as on hosted), so the worker does not call again until that chain is done. At start it gives back jobs a
 * previous run left `running` (the stack was stopped mid-job), since no other worker shares this database.
 */

export interface JobWorkerOptions {
  adminDbUrl: string;
  /** e.g. http://127.0.0.1:54321/functions/v1/run-jobs */
  runJobsUrl: string;
  serviceRoleKey: string;
  log: (message: string) => void;
  pollMs?: number;
}

export interface JobWorker {
  close(): Promise<void>;
}

const DUE_JOBS = `select exists (
  select 1 from public.server_jobs
   where (state = 'pending' and run_after <= now()) or (state = 'running' and locked_until < now())
) as due`;

export async function startJobWorker(options: JobWorkerOptions): Promise<JobWorker> {
  const pollMs = options.pollMs ?? 1000;
  const pool = new pg.Pool({ connectionString: options.adminDbUrl, max: 1 });
  pool.on('error', (error) => options.log(`db: ${error.message}`));
  // The queue belongs to the project's migrations: a project without it has no server jobs to run.
  const { rows } = await pool.query<{ present: boolean }>(
    `select to_regprocedure('public.release_server_jobs()') is not null as present`,
  );
  if (!rows[0]!.present) {
    options.log('no public.server_jobs queue in this project: job worker not started');
    await pool.end();
    return { close: async () => {} };
  }
  const released = await pool.query<{ released: number }>('select public.release_server_jobs() as released');
  if (released.rows[0]!.released) options.log(`${released.rows[0]!.released} interrupted job(s) queued again`);

  let closing = false;
  let running: Promise<void> | undefined;
  let again = false;
  let listener: pg.Client | undefined;
  // One controller per call (a shared signal would collect a listener per request), kept to cut it on close.
  let inFlight: AbortController | undefined;

  /** Jobs run by one call; 0 when it handed the rest of the work to a call of its own. */
  const runOnce = async (): Promise<number> => {
    inFlight = new AbortController();
    try {
      const response = await fetch(options.runJobsUrl, {
        method: 'POST',
        headers: { Authorization: `Bearer ${options.serviceRoleKey}`, 'Content-Type': 'application/json' },
        body: '{}',
        signal: inFlight.signal,
      });
      const body = (await response.json().catch(() => ({}))) as { ran?: number; more?: boolean; message?: string };
      if (!response.ok) throw new Error(`run-jobs answered ${response.status}: ${body.message ?? ''}`);
      return body.more ? 0 : (body.ran ?? 0);
    } finally {
      inFlight = undefined;
    }
  };

  const kick = () => {
    if (closing) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while (!closing && (await runOnce()) > 0) {
            // keep draining while jobs keep coming
          }
        } while (again && !closing);
      } catch (error) {
        if (!closing) options.log(`run-jobs failed, retrying on the next poll: ${(error as Error).message}`);
      } finally {
        running = undefined;
      }
    })();
  };

  const poll = async () => {
    if (closing || running) return;
    try {
      const { rows } = await pool.query<{ due: boolean }>(DUE_JOBS);
      if (rows[0]?.due) kick();
    } catch (error) {
      if (!closing) options.log(`poll failed: ${(error as Error).message}`);
    }
  };

  const listen = async () => {
    if (closing) return;
    const client = new pg.Client({ connectionString: options.adminDbUrl });
    client.on('notification', () => kick());
    client.on('error', (error) => {
      if (closing) return;
      options.log(`listener lost (${error.message}); reconnecting`);
      listener = undefined;
      void client.end().catch(() => {});
      setTimeout(() => void listen(), 1000);
    });
    try {
      await client.connect();
      await client.query('listen server_jobs');
      listener = client;
    } catch (error) {
      void client.end().catch(() => {});
      if (!closing) setTimeout(() => void listen(), 1000);
      options.log(`listener failed to start: ${(error as Error).message}`);
    }
  };

  await listen();
  const timer = setInterval(() => void poll(), pollMs);
  void poll();

  return {
    async close() {
      closing = true;
      clearInterval(timer);
      inFlight?.abort();
      await running?.catch(() => {});
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}
