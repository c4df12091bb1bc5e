// How much of an Edge Function request's limits a loop of work may spend before it stops and lets another
// request go on: hosted Supabase ends a request past 2 s of CPU (and a worker past its wall clock), so work
// that can come in steps checks this between steps and keeps each request under half of the limits.
import process from 'node:process';

export interface Budget {
  /** True once this request has used its CPU or wall-clock allowance. */
  spent(): boolean;
}

export function requestBudget(cpuMs: number, wallMs: number): Budget {
  const cpuStart = process.cpuUsage();
  const wallStart = Date.now();
  return {
    spent() {
      const cpu = process.cpuUsage(cpuStart);
      return (cpu.user + cpu.system) / 1000 >= cpuMs || Date.now() - wallStart >= wallMs;
    },
  };
}
