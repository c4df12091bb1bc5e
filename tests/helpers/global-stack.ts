import http from 'node:http';
import type { TestProject } from 'vitest/node';
import { startStack, type RunningStack } from '@mediateca/stack';
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

interface SharedStack {
  stack: RunningStack;
  controlUrl: string;
  /** Projects of this run using the stack; the last one to finish stops it. */
  users: number;
  stop: () => Promise<void>;
}

/**
 * The stack package's own tests (project `stack`) share the integration tests' stack, as they did before they
 * moved into stack/tests: one start for both, the same seeded data. The end-to-end tests keep one of their own.
 * Global setups run in one process, so the stack is kept on globalThis, where every project's setup finds it.
 */
const STACK_SHARED_WITH: Record<string, string> = { stack: 'integration' };
const running = globalThis as typeof globalThis & { mediatecaTestStacks?: Map<string, Promise<SharedStack>> };

/** One ephemeral stack (temp data dir, free ports, seeded) for every test file of the project. */
export default async function setup(project: TestProject) {
  const group = STACK_SHARED_WITH[project.name] ?? project.name;
  const stacks = (running.mediatecaTestStacks ??= new Map());
  if (!stacks.has(group)) stacks.set(group, startShared());
  const shared = await stacks.get(group)!;
  shared.users += 1;
  const { stack } = shared;
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
  project.provide('stackControlUrl', shared.controlUrl);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    stacks.delete(group);
    await shared.stop();
  };
}

async function startShared(): Promise<SharedStack> {
  const quiet = process.env.STACK_LOG !== '1';
  const provider = await startFakeVideoProvider();
  const stack = await startStack({
    ephemeral: true,
    seed: true,
    functionSecrets: { VIDEO_PROVIDER_API_KEY: FAKE_PROVIDER_KEY, VIDEO_PROVIDER_BASE_URL: provider.url },
    log: quiet ? () => {} : (message) => console.log(`[stack] ${message}`),
  });
  // Test files run in workers; the stack lives here. Loopback only, one action.
  const control = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/restart-database') return void res.writeHead(404).end();
    stack.restartDatabase().then(
      () => res.writeHead(204).end(),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', () => resolve()));
  const address = control.address();
  return {
    stack,
    controlUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    users: 0,
    stop: async () => {
      control.closeAllConnections();
      await new Promise<void>((resolve) => control.close(() => resolve()));
      await stack.stop();
      await provider.close();
    },
  };
}
