import http from 'node:http';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PROJECT_ROOT, startStack, type RunningStack } from '@mediateca/stack';
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
    /**
     * POST {url}/restart-database restarts the stack's Postgres (tests/e2e/database-restart.test.ts);
     * POST {url}/project-stack starts another project's stack once per run (projectStack below).
     */
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

/** What POST /project-stack takes: a project (its supabase/ directory, inside this repository) and options. */
export interface ProjectStackRequest {
  supabaseDir: string;
  jobWorker: boolean;
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
  project.provide('stack', stackInfo(shared.stack));
  project.provide('stackControlUrl', shared.controlUrl);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    stacks.delete(group);
    await shared.stop();
  };
}

function stackInfo(stack: RunningStack): StackInfo {
  return {
    apiUrl: stack.apiUrl,
    anonKey: stack.anonKey,
    serviceRoleKey: stack.serviceRoleKey,
    jwtSecret: stack.jwtSecret,
    dbUrl: stack.dbUrl,
    adminDbUrl: stack.adminDbUrl,
    dataDir: stack.dataDir,
    mailUrl: stack.mailUrl ?? '',
  };
}

async function startShared(): Promise<SharedStack> {
  const quiet = process.env.STACK_LOG !== '1';
  const log = quiet ? () => {} : (message: string) => console.log(`[stack] ${message}`);
  const provider = await startFakeVideoProvider();
  const stack = await startStack({
    ephemeral: true,
    seed: true,
    functionSecrets: { VIDEO_PROVIDER_API_KEY: FAKE_PROVIDER_KEY, VIDEO_PROVIDER_BASE_URL: provider.url },
    log,
  });
  // Stacks of other projects, each started by the first test file asking for it and kept for the others: test
  // files that only read another project's settings need no stack each (a start is the slowest part of them).
  const projectStacks = new Map<string, Promise<RunningStack>>();
  const projectStack = async (request: ProjectStackRequest): Promise<StackInfo> => {
    const supabaseDir = path.resolve(PROJECT_ROOT, request.supabaseDir);
    if (!supabaseDir.startsWith(`${PROJECT_ROOT}${path.sep}`))
      throw new Error(`${supabaseDir} is not in the repository`);
    const key = JSON.stringify({ supabaseDir, jobWorker: request.jobWorker });
    if (!projectStacks.has(key)) {
      const starting = startStack({ ephemeral: true, supabaseDir, jobWorker: request.jobWorker, log });
      // A start that failed is tried again by the next file rather than failing every one after it.
      starting.catch(() => projectStacks.delete(key));
      projectStacks.set(key, starting);
    }
    return stackInfo(await projectStacks.get(key)!);
  };
  // Test files run in workers; the stacks live here. Loopback only.
  const control = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/restart-database') {
      stack.restartDatabase().then(
        () => res.writeHead(204).end(),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
      return;
    }
    if (req.method === 'POST' && req.url === '/project-stack') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        Promise.resolve()
          .then(() => projectStack(JSON.parse(body) as ProjectStackRequest))
          .then(
            (info) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(info)),
            (error: unknown) => res.writeHead(500).end(String(error)),
          );
      });
      return;
    }
    res.writeHead(404).end();
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
      const others = await Promise.allSettled(projectStacks.values());
      await Promise.all(others.map((other) => (other.status === 'fulfilled' ? other.value.stop() : undefined)));
      await stack.stop();
      await provider.close();
    },
  };
}
