import path from 'node:path';
import { startStack, PROJECT_ROOT, type RunningStack } from './stack.ts';
import { DEFAULT_API_PORT, DEFAULT_DB_PORT, DEFAULT_HOST } from './config.ts';
import { readStackEnv } from './env.ts';

/**
 * Runs the persistent local stack in the foreground (data in .stack/, reused across restarts) until Ctrl-C,
 * for `npm run stack` and for tools that start something beside it (`npm start` adds the app's dev server).
 */

/** Something started beside the stack: printed above the stack's URLs, stopped before it. */
export interface Companion {
  /** `label: value` lines printed first (e.g. the app's URL). */
  lines: Array<[label: string, value: string]>;
  /** Text printed after the stack's URLs (e.g. sign-in accounts). */
  footer?: string;
  close(): Promise<void>;
}

export interface RunOptions {
  /** Who is running, as the ready message says it: "Mediateca is running". */
  name: string;
  /** Starts what runs beside the stack once it is up; a failure stops the stack too. */
  companion?: (stack: RunningStack, host: string) => Promise<Companion>;
}

export async function runStack(options: RunOptions): Promise<void> {
  const startedAt = Date.now();
  const env = readStackEnv();
  const host = env.STACK_HOST ?? DEFAULT_HOST;
  const running: { stack?: Promise<RunningStack>; companion?: Companion } = {};
  let stopping = false;

  // Ctrl-C while the stack is still starting waits for the start to finish, then stops what it started.
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await running.companion?.close().catch(() => {});
    const stack = await running.stack?.catch(() => undefined);
    await stack?.stop().catch((error: unknown) => console.error(error));
    console.log('stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  running.stack = startStack({
    host,
    apiPort: env.STACK_API_PORT ?? DEFAULT_API_PORT,
    dbPort: env.STACK_DB_PORT ?? DEFAULT_DB_PORT,
    dataDir: env.STACK_DATA_DIR ?? path.join(PROJECT_ROOT, '.stack'),
    authRateLimitHeader: env.STACK_AUTH_RATE_LIMIT_HEADER === 'none' ? null : env.STACK_AUTH_RATE_LIMIT_HEADER,
    log: (message) => console.log(`[stack] ${message}`),
  });
  const stack = await running.stack;
  if (stopping) return;

  try {
    running.companion = await options.companion?.(stack, host);
  } catch (error) {
    // A busy app port must not leave Postgres, PostgREST and Deno running behind an exited process.
    await stack.stop();
    throw error;
  }

  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  const lines: Array<[string, string]> = [
    ...(running.companion?.lines ?? []),
    ['API URL', stack.apiUrl],
    ['Anon key', stack.anonKey],
    ['Service role key', stack.serviceRoleKey],
    ['Database URL', stack.dbUrl],
  ];
  if (stack.analystDbUrl) {
    lines.push(['Analyst DB URL', `${stack.analystDbUrl}  (read-only: the analytics views, see supabase/README.md)`]);
  }
  if (stack.mailUrl) {
    lines.push(['Mail (catcher)', `${stack.mailUrl}  (every e-mail Auth sends: password resets, invitations)`]);
  }
  const footer = running.companion?.footer ? `\n\n${running.companion.footer}` : '';
  console.log(`
${options.name} is running (ready in ${seconds} s)

${lines.map(([label, value]) => `  ${`${label}:`.padEnd(18)}${value}`).join('\n')}${footer}

Press Ctrl-C to stop.`);
}

/** Runs `main`, printing a failure and exiting non-zero. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
