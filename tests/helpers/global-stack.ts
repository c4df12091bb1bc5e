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
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
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
  });
  return async () => {
    await stack?.stop();
    await provider.close();
  };
}
