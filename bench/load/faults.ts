import type { StackProcess } from '../lib/stack-process.ts';
import { progress } from '../lib/harness.ts';
import { sleep, type Metrics } from './metrics.ts';
import { killFunctionsRuntime, stackCpu, stackMemory, type PartMemory } from './processes.ts';

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
 * The stack's memory and CPU every 10 s until `until`: the memory sample at the end of the first minute (or
 * the first sample, in a shorter run) and the last one are what the report compares, with the one halfway
 * through (growth that stops is a cache warming; a leak keeps growing in the second half); the CPU each part used
 * over the whole load and in its busiest 10 s (a process that ends between two samples loses its last
 * seconds).
 */
export async function sampleMemory(pid: number, startedAt: number, halfwayAfterMs: number, until: () => boolean) {
  let firstMinute: Map<string, PartMemory> | null = null;
  let halfway: Map<string, PartMemory> | null = null;
  let previous = await stackCpu(pid);
  const cpu = new Map<string, { seconds: number; busiest: number }>();
  const sampleCpu = async () => {
    const now = await stackCpu(pid);
    const interval = new Map<string, number>();
    for (const [processId, { group, seconds }] of now) {
      const used = seconds - (previous.get(processId)?.seconds ?? 0);
      interval.set(group, (interval.get(group) ?? 0) + used);
    }
    for (const [group, used] of interval) {
      const total = cpu.get(group) ?? { seconds: 0, busiest: 0 };
      cpu.set(group, { seconds: total.seconds + used, busiest: Math.max(total.busiest, used / 10) });
    }
    previous = now;
  };
  while (!until()) {
    const last = await stackMemory(pid);
    if (!firstMinute || Date.now() - startedAt <= 60_000) firstMinute = last;
    if (!halfway || Date.now() - startedAt <= halfwayAfterMs) halfway = last;
    await sleep(10_000);
    await sampleCpu();
  }
  const end = await stackMemory(pid);
  return {
    firstMinute: firstMinute ?? end,
    halfway: halfway ?? end,
    end,
    cpu,
    seconds: (Date.now() - startedAt) / 1000,
  };
}
