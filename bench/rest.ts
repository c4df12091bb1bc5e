import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress, signedInAdmin, timeRuns, withStack } from './lib/harness.ts';

/** Part of `npm run bench -- --quick`: one stack and 200 reads each way with --quick, under half a minute. */
export const inQuickRun = true;

/** One row read with a user JWT under RLS: through the gateway vs straight to PostgREST, same run. */
export async function run(): Promise<BenchRow[]> {
  const runs = isQuick() ? 200 : 1000;
  return withStack(async (stack) => {
    const { token } = await signedInAdmin(stack);
    const id = 'f0000000-0000-4000-8000-000000000001';
    const read = (base: string) => async () => {
      const response = await fetch(`${base}/files?id=eq.${id}&select=*`, {
        headers: {
          apikey: stack.anonKey,
          authorization: `Bearer ${token}`,
          accept: 'application/vnd.pgrst.object+json',
        },
      });
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      await response.arrayBuffer();
    };
    progress('rest', `${runs} reads each way`);
    const direct = await timeRuns(runs, read(stack.postgrestUrl), 20);
    const gateway = await timeRuns(runs, read(`${stack.apiUrl}/rest/v1`), 20);
    return [50, 95].map((p) => ({
      metric: `PostgREST single-row read (JWT + RLS) p${p}`,
      unit: 'ms',
      value: percentile(gateway, p),
      baseline: percentile(direct, p),
      baselineLabel: 'straight to PostgREST',
      goal: 'gateway adds < 1 ms',
      higherIsBetter: false,
    }));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('rest', await run());
}
