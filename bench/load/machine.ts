import { readFileSync } from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * How busy the machine was while the people worked, to read the latencies by: its 2 cores are shared with
 * other engineers' work, and the 50 simulated people run in this one Node process, whose own delays (TUS
 * reading files, 50 clients' callbacks) are part of every time it measures.
 */
export interface MachineLoad {
  /** Share of all cores busy (every process on the machine), 0–1. */
  busy: number;
  cores: number;
  /** CPU-seconds per second of this process (the simulated people), 0–cores. */
  benchCpu: number;
  /** p95 of this process's event-loop delay, ms: how late its callbacks ran. */
  eventLoopDelayP95: number;
}

function cpuTimes() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const values = fields.map(Number);
  // user nice system idle iowait irq softirq steal
  const idle = values[3]! + values[4]!;
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
  return { idle, total };
}

export function startMachineWatch() {
  const startedAt = performance.now();
  const before = cpuTimes();
  const cpuBefore = process.cpuUsage();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  return {
    stop(): MachineLoad {
      delay.disable();
      const after = cpuTimes();
      const used = process.cpuUsage(cpuBefore);
      const seconds = (performance.now() - startedAt) / 1000;
      return {
        busy: 1 - (after.idle - before.idle) / (after.total - before.total),
        cores: os.cpus().length,
        benchCpu: (used.user + used.system) / 1e6 / seconds,
        eventLoopDelayP95: delay.percentile(95) / 1e6,
      };
    },
  };
}
