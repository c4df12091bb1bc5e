import { readFileSync } from 'node:fs';

/**
 * What a hosted Edge Function may use per request (Supabase docs, "Edge Functions › Limits", free plan), and
 * how the stack reads overrides. The defaults are hosted's; nothing here is ever more lenient by default.
 */
export interface FunctionLimits {
  /** CPU time of the function's isolate thread per request (async I/O not counted). Hosted: 2 s. */
  cpuMs: number;
  /** Memory the worker may grow by above what it held once booted. Hosted: 256 MB. */
  memoryMb: number;
  /** How long a worker lives: new requests go to a younger one after half of it; in-flight ones are cut at it. */
  wallClockMs: number;
  /** Time to the response's head; past it the caller gets 504. Hosted: 150 s. */
  idleTimeoutMs: number;
  /** A function's bundle after `supabase functions deploy` bundles it. Hosted: 20 MB. */
  bundleMb: number;
  /** Hosted serves `text/html` only on a custom domain; without one GET answers become `text/plain`. */
  customDomain: boolean;
}

export const HOSTED_FREE_PLAN_LIMITS: FunctionLimits = {
  cpuMs: 2_000,
  memoryMb: 256,
  wallClockMs: 150_000,
  idleTimeoutMs: 150_000,
  bundleMb: 20,
  customDomain: false,
};

/** A paid plan's workers live 400 s; everything else is the same. */
export const HOSTED_PAID_PLAN_WALL_CLOCK_MS = 400_000;

const positive = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
};

/** Limits from `STACK_FUNCTIONS_*` variables (stack/README.md "Environment"), then explicit overrides. */
export function resolveFunctionLimits(env: NodeJS.ProcessEnv, overrides: Partial<FunctionLimits> = {}): FunctionLimits {
  const plan = env.STACK_FUNCTIONS_PLAN ?? 'free';
  if (plan !== 'free' && plan !== 'paid') throw new Error(`STACK_FUNCTIONS_PLAN must be free or paid, got "${plan}"`);
  const seconds = (name: string) => {
    const value = positive(name, env[name]);
    return value === undefined ? undefined : value * 1000;
  };
  const fromEnv: Partial<FunctionLimits> = {
    cpuMs: positive('STACK_FUNCTIONS_CPU_MS', env.STACK_FUNCTIONS_CPU_MS),
    memoryMb: positive('STACK_FUNCTIONS_MEMORY_MB', env.STACK_FUNCTIONS_MEMORY_MB),
    wallClockMs:
      seconds('STACK_FUNCTIONS_WALL_CLOCK_S') ?? (plan === 'paid' ? HOSTED_PAID_PLAN_WALL_CLOCK_MS : undefined),
    idleTimeoutMs: seconds('STACK_FUNCTIONS_IDLE_TIMEOUT_S'),
    bundleMb: positive('STACK_FUNCTIONS_BUNDLE_MB', env.STACK_FUNCTIONS_BUNDLE_MB),
    customDomain: env.STACK_FUNCTIONS_CUSTOM_DOMAIN ? env.STACK_FUNCTIONS_CUSTOM_DOMAIN === '1' : undefined,
  };
  const defined = <T extends object>(value: T) =>
    Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
  return { ...HOSTED_FREE_PLAN_LIMITS, ...defined(fromEnv), ...defined(overrides) };
}

/** Why the supervisor ended a worker, as the edge runtime's shutdown reasons name them. */
export type ShutdownReason = 'CPUTime' | 'Memory' | 'WallClockTime';

/** Hosted's answer when a resource limit ends a request (status 546, a custom code). */
export const WORKER_LIMIT_STATUS = 546;
export const WORKER_LIMIT_BODY = {
  code: 'WORKER_LIMIT',
  message: 'Function failed due to not having enough compute resources (please check logs)',
};
export const IDLE_TIMEOUT_BODY = {
  code: 'IDLE_TIMEOUT',
  message: 'Function did not respond before the request idle timeout (please check logs)',
};
export const BOOT_ERROR_BODY = { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' };

const CLOCK_TICKS_PER_SECOND = 100;
const PAGE_SIZE = 4096;

/**
 * CPU time of a process's main thread, in ms: Deno runs the isolate (the function's JavaScript and the ops
 * it calls synchronously) on it, which is what hosted's per-request CPU limit counts; GC helpers and the
 * I/O threads are left out, as there. Null when the process is gone.
 */
export function mainThreadCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; fields after its closing parenthesis are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the line)
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Resident memory of a process in bytes, or null when it is gone. */
export function residentBytes(pid: number): number | null {
  try {
    const statm = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
    return Number(statm[1]) * PAGE_SIZE;
  } catch {
    return null;
  }
}
