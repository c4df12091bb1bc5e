import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningStack } from '../../stack/src/stack.ts';

/** What a benchmark may use of a stack running in another process: its addresses and keys. */
export type StackEndpoints = Omit<RunningStack, 'stop' | 'restartDatabase'>;

/** The messages between this process and the stack's (stack-process-child.ts). */
export type FromStack =
  { ready: StackEndpoints } | { failed: string } | { logs: string[] } | { restarted: true } | { restartFailed: string };

/** What a benchmark may do to the stack's process beyond using it: find its processes, restart its Postgres. */
export interface StackProcessControl {
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
  work: (stack: StackEndpoints, control: StackProcessControl) => Promise<T>,
): Promise<T> {
  const child = fork(CHILD, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = () =>
    new Promise<FromStack>((resolve, reject) => {
      child.once('message', (message) => resolve(message as FromStack));
      child.once('exit', (code) => reject(new Error(`the stack's process exited (${code})`)));
    });
  try {
    const started = await next();
    if (!('ready' in started)) throw new Error(`the stack did not start: ${'failed' in started ? started.failed : ''}`);
    const control: StackProcessControl = {
      pid: child.pid!,
      restartDatabase: async () => {
        child.send('restart-database');
        const answer = await next();
        if (!('restarted' in answer))
          throw new Error(`Postgres did not restart: ${'restartFailed' in answer ? answer.restartFailed : ''}`);
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
