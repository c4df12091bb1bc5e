import pg from 'pg';
import { progress } from '../lib/harness.ts';

/**
 * Where a request's time goes inside Postgres under load: what its active client backends are waiting on,
 * sampled every 200 ms (a backend at work with no wait event is on a core), and the statements' execution
 * times from pg_stat_statements, reset when the load starts. A read whose execution time stays near its
 * one-user figure while its p95 through the API grows is waiting outside Postgres.
 */
export async function watchDatabaseTime(adminDbUrl: string, working: () => boolean) {
  const db = new pg.Client({ connectionString: adminDbUrl });
  await db.connect();
  await db.query('select extensions.pg_stat_statements_reset()');
  const waits = new Map<string, number>();
  let samples = 0;
  // A restarted Postgres (the --faults run) ends the sampling; what was sampled before still counts.
  db.on('error', () => {});
  const sampling = (async () => {
    while (working()) {
      const { rows } = await db.query<{ wait: string; backends: number }>(
        `select coalesce(wait_event_type || ':' || wait_event, 'on a core') as wait, count(*)::int as backends
           from pg_stat_activity
          where backend_type = 'client backend' and state = 'active' and pid <> pg_backend_pid()
          group by 1`,
      );
      samples++;
      for (const row of rows) waits.set(row.wait, (waits.get(row.wait) ?? 0) + row.backends);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })().catch((error: unknown) => progress('load', `database sampling stopped: ${String(error)}`));
  return async () => {
    await sampling;
    const { rows } = await db.query<{ query: string; calls: string; mean: number; max: number; stddev: number }>(
      `select left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as query, calls, mean_exec_time as mean,
              max_exec_time as max, stddev_exec_time as stddev
         from extensions.pg_stat_statements
        where query not ilike '%pg_stat%'
        order by total_exec_time desc limit 12`,
    );
    await db.end();
    const busiest = [...waits].sort((a, b) => b[1] - a[1]).slice(0, 10);
    progress('load', `active client backends per sample (${samples} samples), by what they waited on:`);
    for (const [wait, count] of busiest) progress('load', `  ${wait}: ${(count / samples).toFixed(2)}`);
    progress('load', 'statements by total execution time (calls, mean / stddev / max ms):');
    for (const row of rows) {
      progress(
        'load',
        `  ${row.calls} × ${row.mean.toFixed(2)} / ${row.stddev.toFixed(2)} / ${row.max.toFixed(1)}  ${row.query}`,
      );
    }
  };
}
