import http from 'node:http';
import type { TestProject } from 'vitest/node';
import { startStack, type RunningStack } from '../../stack/src/stack.ts';
import { FAKE_PROVIDER_KEY, startFakeVideoProvider } from './fake-video-provider.ts';

export interface StackInfo {
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  dbUrl: string;
  adminDbUrl: string;
  dataDir: string;
  /** The mail catcher's origin (GET /api/messages?to=…), where Auth's mails land. */
  mailUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
    /** POST {url}/restart-database restarts the stack's Postgres (tests/e2e/database-restart.test.ts). */
    stackControlUrl: string;
  }
}

let stack: RunningStack | undefined;

/** One ephemeral stack (temp data dir, free ports, seeded) for every test file of the project. */
export default async function setup(project: TestProject) {
  const quiet = process.env.STACK_LOG !== '1';
  const provider = await startFakeVideoProvider();
  stack = await startStack({
    ephemeral: true,
    seed: true,
    functionSecrets: { VIDEO_PROVIDER_API_KEY: FAKE_PROVIDER_KEY, VIDEO_PROVIDER_BASE_URL: provider.url },
    log: quiet ? () => {} : (message) => console.log(`[stack] ${message}`),
  });
  project.provide('stack', {
    apiUrl: stack.apiUrl,
    anonKey: stack.anonKey,
    serviceRoleKey: stack.serviceRoleKey,
    jwtSecret: stack.jwtSecret,
    dbUrl: stack.dbUrl,
    adminDbUrl: stack.adminDbUrl,
    dataDir: stack.dataDir,
    mailUrl: stack.mailUrl ?? '',
  });
  // Test files run in workers; the stack lives here. Loopback only, one action.
  const control = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/restart-database') return void res.writeHead(404).end();
    stack!.restartDatabase().then(
      () => res.writeHead(204).end(),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', () => resolve()));
  const address = control.address();
  project.provide('stackControlUrl', `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  return async () => {
    control.closeAllConnections();
    await new Promise<void>((resolve) => control.close(() => resolve()));
    await stack?.stop();
    await provider.close();
  };
}
