import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningStack } from '@mediateca/stack';
import type { ChunkBreakdown } from './patch-timeline.ts';
import type { RealtimeBreakdown } from './realtime-timeline.ts';

/** What a benchmark may use of a stack running in another process: its addresses and keys. */
export type StackEndpoints = Omit<RunningStack, 'stop' | 'restartDatabase' | 'functionUsage'>;

/** The messages between this process and the stack's (stack-process-child.ts). */
export type FromStack =
  | { ready: StackEndpoints }
  | { failed: string }
  | { logs: string[] }
  | { cpuSeconds: number }
  | { loopDelay: LoopDelay }
  | { patches: ChunkBreakdown }
  | { realtime: RealtimeBreakdown }
  | { restarted: true }
  | { restartFailed: string };

/** How late the stack's process ran its callbacks, ms. */
export interface LoopDelay {
  p50: number;
  p95: number;
  max: number;
}

/** What a benchmark may ask the stack's process while it runs. */
export interface StackProcess {
  /** CPU-seconds (user + system) the stack's Node process has used so far. */
  cpuSeconds(): Promise<number>;
  /** Its event loop's delay since the last call (the first call starts the count). */
  loopDelay(): Promise<LoopDelay>;
  /** Where each TUS chunk's time went since the last call, seen from the gateway (lib/patch-timeline.ts). */
  takePatches(): Promise<ChunkBreakdown>;
  /** Where Realtime's changes spent their time inside the stack since the last call (lib/realtime-timeline.ts). */
  takeRealtime(): Promise<RealtimeBreakdown>;
  /** The stack's Node process; Postgres, PostgREST and the Deno workers are its descendants. */
  pid: number;
  /** Postgres stopped at once and started again on the same data (the stack's restartDatabase). */
  restartDatabase(): Promise<void>;
}

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'stack-process-child.ts');

/**
 * An ephemeral, seeded stack in a process of its own, for the browser benchmarks. In this process the
 * stack's gateway, Storage and Auth shared one event loop with Playwright's driver, so the driver learned
 * that the page had painted only once the stack's pending work (a page's 20–40 thumbnail signatures) was
 * done. A person's browser does not wait for the server's event loop to notice its own screen.
 * The stack's last log lines are printed when the benchmark fails, as withStack does.
 */
export async function withStackProcess<T>(
  work: (stack: StackEndpoints, process: StackProcess) => Promise<T>,
): Promise<T> {
  // BENCH_STACK_CPU_PROF=<dir>: a CPU profile of the stack's process, written there when it stops.
  const profile = process.env.BENCH_STACK_CPU_PROF;
  const execArgv = ['--import', 'tsx', ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [])];
  const child = fork(CHILD, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = () =>
    new Promise<FromStack>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the stack's process exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message as FromStack);
      });
    });
  try {
    const started = await next();
    if (!('ready' in started)) throw new Error(`the stack did not start: ${'failed' in started ? started.failed : ''}`);
    const ask = async <K extends 'cpuSeconds' | 'patches' | 'loopDelay' | 'realtime'>(
      question: 'cpu' | 'patches' | 'loop' | 'realtime',
      key: K,
    ) => {
      const answer = next();
      child.send(question);
      const message = await answer;
      if (!(key in message)) throw new Error(`the stack's process answered ${JSON.stringify(message)}`);
      return (message as Extract<FromStack, Record<K, unknown>>)[key];
    };
    const control: StackProcess = {
      cpuSeconds: () => ask('cpu', 'cpuSeconds') as Promise<number>,
      takePatches: () => ask('patches', 'patches') as Promise<ChunkBreakdown>,
      takeRealtime: () => ask('realtime', 'realtime') as Promise<RealtimeBreakdown>,
      loopDelay: () => ask('loop', 'loopDelay') as Promise<LoopDelay>,
      pid: child.pid!,
      restartDatabase: async () => {
        const answer = next();
        child.send('restart-database');
        const message = await answer;
        if (!('restarted' in message))
          throw new Error(`Postgres did not restart: ${'restartFailed' in message ? message.restartFailed : ''}`);
      },
    };
    try {
      return await work(started.ready, control);
    } catch (error) {
      // A stack that crashed has nothing more to say; one that still runs hands over its recent lines.
      let answer: FromStack | null = null;
      if (child.connected) {
        child.send('logs');
        answer = await next().catch(() => null);
      }
      if (answer && 'logs' in answer)
        console.error(`  the stack's last ${answer.logs.length} log lines:\n${answer.logs.join('\n')}`);
      throw error;
    }
  } finally {
    if (child.connected) child.send('stop');
    await exited;
  }
}
