import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startStack, type RunningStack, type StackOptions } from '@mediateca/stack';

/** A stack's log on the console with STACK_LOG=1, silent otherwise. */
export const stackLog = (message: string) => {
  if (process.env.STACK_LOG === '1') console.log(`[stack] ${message}`);
};

/**
 * A stack of a test file's own, beside the shared one, for what the shared one cannot show (another project,
 * other Auth settings, a backup wiping it): a temporary data directory removed when it stops, free ports.
 */
export function startOwnStack(options: StackOptions = {}): Promise<RunningStack> {
  return startStack({ ephemeral: true, log: stackLog, ...options });
}

/**
 * A data directory and a pair of ports that outlive the stack's restarts (not 54321/54322: `npm start` or a
 * parallel run may hold those; the first start takes free ones, later starts the same): `start` it as often as
 * the test restarts it, `remove` it at the end.
 */
export async function ownStackHome(prefix: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  let ports = { apiPort: 0, dbPort: 0 };
  return {
    dataDir,
    start: async (options: StackOptions = {}) => {
      const stack = await startStack({ dataDir, ...ports, log: stackLog, ...options });
      ports = { apiPort: stack.apiPort, dbPort: stack.dbPort };
      return stack;
    },
    remove: () => rm(dataDir, { recursive: true, force: true }),
  };
}
