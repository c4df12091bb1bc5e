import type { StackProcess } from '../lib/stack-process.ts';
import { progress } from '../lib/harness.ts';
import { sleep, type Metrics } from './metrics.ts';
import { killFunctionsRuntime, stackMemory } from './processes.ts';

/**
 * The faults of `--faults`, in the middle of the load: Postgres restarted once (at 40 % of the run) and the
 * functions runtime killed once (at 65 %). For 30 s after each, what people see is counted apart: a request
 * cut by the fault is expected to fail there; what matters is that nothing accepted is lost afterwards.
 */
export interface FaultEvent {
  what: string;
  /** Seconds into the load. */
  at: number;
  /** Seconds the fault itself took (the restart; the kill is instant). */
  took: number;
}

const WINDOW_MS = 30_000;

export async function injectFaults(
  control: StackProcess,
  metrics: Metrics,
  load: { startedAt: number; ms: number },
): Promise<FaultEvent[]> {
  const events: FaultEvent[] = [];
  const at = (fraction: number) => sleep(Math.max(0, load.startedAt + load.ms * fraction - Date.now()));
  const window = async (what: string, fault: () => Promise<string>) => {
    metrics.faultWindow = true;
    const started = Date.now();
    const detail = await fault();
    events.push({
      what: `${what}${detail}`,
      at: (started - load.startedAt) / 1000,
      took: (Date.now() - started) / 1000,
    });
    progress('load', `${what}${detail} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await sleep(WINDOW_MS);
    metrics.faultWindow = false;
  };
  await at(0.4);
  await window('Postgres restarted', async () => {
    await control.restartDatabase();
    return '';
  });
  await at(0.65);
  await window('functions runtime killed', async () => {
    const killed = await killFunctionsRuntime(control.pid);
    return ` (${killed} Deno workers, SIGKILL)`;
  });
  return events;
}

/**
 * The stack's memory every 10 s until `until`: the sample at the end of the first minute (or the first
 * sample, in a shorter run) and the last one are what the report compares.
 */
export async function sampleMemory(pid: number, startedAt: number, until: () => boolean) {
  let firstMinute: Map<string, number> | null = null;
  while (!until()) {
    const last = await stackMemory(pid);
    if (!firstMinute || Date.now() - startedAt <= 60_000) firstMinute = last;
    await sleep(10_000);
  }
  const end = await stackMemory(pid);
  return { firstMinute: firstMinute ?? end, end };
}
