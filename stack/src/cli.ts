import path from 'node:path';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { startStack, PROJECT_ROOT, type RunningStack } from './stack.ts';
import { DEFAULT_API_PORT, DEFAULT_DB_PORT, DEFAULT_HOST } from './config.ts';

/**
 * `npm start`: the persistent local stack (data in .stack/, reused across restarts) plus the Vite dev
 * server for the app, wired to the stack through VITE_* variables. Ctrl-C stops everything.
 */

const DEMO_ACCOUNTS = [
  { role: 'ADMIN', email: 'admin@mediateca.local', password: 'mediateca-admin' },
  { role: 'UPLOADER', email: 'uploader@mediateca.local', password: 'mediateca-uploader' },
  // Academy members sign in to the academy app's API only; Lucía has a private category, Tom has not.
  { role: 'MEMBER', email: 'lucia@agencia.example', password: 'academy-lucia' },
  { role: 'MEMBER', email: 'tom@travel.example', password: 'academy-tom' },
];

function envPort(name: string, fallback: number): number {
  const value = process.env[name];
  if (!value) return fallback;
  const port = Number.parseInt(value, 10);
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new Error(`${name} must be a TCP port, got "${value}"`);
  return port;
}

async function main() {
  const startedAt = Date.now();
  const host = process.env.STACK_HOST ?? DEFAULT_HOST;
  const running: { stack?: Promise<RunningStack>; vite?: ViteDevServer } = {};
  let stopping = false;

  // Ctrl-C while the stack is still starting waits for the start to finish, then stops what it started.
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping Mediateca…`);
    await running.vite?.close().catch(() => {});
    const stack = await running.stack?.catch(() => undefined);
    await stack?.stop().catch((error: unknown) => console.error(error));
    console.log('stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  running.stack = startStack({
    host,
    apiPort: envPort('STACK_API_PORT', DEFAULT_API_PORT),
    dbPort: envPort('STACK_DB_PORT', DEFAULT_DB_PORT),
    dataDir: process.env.STACK_DATA_DIR ?? path.join(PROJECT_ROOT, '.stack'),
    log: (message) => console.log(`[stack] ${message}`),
  });
  const stack = await running.stack;
  if (stopping) return;

  process.env.VITE_SUPABASE_URL = stack.apiUrl;
  process.env.VITE_SUPABASE_ANON_KEY = stack.anonKey;
  let vite: ViteDevServer;
  try {
    vite = await createViteServer({
      root: PROJECT_ROOT,
      server: { host, port: envPort('APP_PORT', 5173) },
    });
    running.vite = vite;
    await vite.listen();
  } catch (error) {
    // A busy app port must not leave Postgres, PostgREST and Deno running behind an exited process.
    await running.vite?.close().catch(() => {});
    await stack.stop();
    throw error;
  }
  const appUrl = vite.resolvedUrls?.local[0] ?? `http://${host}:5173/`;

  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  const analystLine = stack.analystDbUrl
    ? `\n  Analyst DB URL:   ${stack.analystDbUrl}  (read-only: the analytics views, see supabase/README.md)`
    : '';
  console.log(`
Mediateca is running (ready in ${seconds} s)

  App:              ${appUrl}
  API URL:          ${stack.apiUrl}
  Anon key:         ${stack.anonKey}
  Service role key: ${stack.serviceRoleKey}
  Database URL:     ${stack.dbUrl}${analystLine}${stack.mailUrl ? `\n  Mail (catcher):   ${stack.mailUrl}  (every e-mail Auth sends: password resets, invitations)` : ''}

  Demo accounts:
${DEMO_ACCOUNTS.map((a) => `    ${a.role.padEnd(9)} ${a.email}  /  ${a.password}`).join('\n')}

Press Ctrl-C to stop.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
