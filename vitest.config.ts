import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import DurationsJsonReporter from './tests/helpers/durations-reporter.ts';

/**
 * Five projects: fast unit tests (the app's helpers and components in jsdom; the stack's and the scripts' in
 * Node), integration tests against one ephemeral local stack started by the global setup, end-to-end tests in
 * headless Chromium, and the stack package's own tests (stack/vitest.config.ts), which share the integration
 * tests' stack. docs/testing.md says in what order CI runs them.
 */
export default defineConfig({
  test: {
    // The console's report, and vitest's JSON with each file's duration in test-results/vitest.json (git-ignored),
    // which `node --import tsx scripts/slowest-tests.ts` reads.
    reporters: ['default', new DurationsJsonReporter({ outputFile: 'test-results/vitest.json' })],
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/testing/setup.ts'],
          env: {
            VITE_SUPABASE_URL: 'http://127.0.0.1:54321',
            VITE_SUPABASE_ANON_KEY: 'unit-test-anon-key-not-used-for-requests',
          },
        },
      },
      {
        // The stack's and the scripts' unit tests need no document: jsdom's start (seconds a file on a busy
        // 2-core machine) is spared them. They run beside the app's unit tests.
        test: {
          name: 'unit-node',
          include: ['stack/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/global-stack.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // Test files share one stack; running them one at a time keeps 2-core CI machines predictable.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/global-stack.ts', 'tests/helpers/global-app.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      'stack/vitest.config.ts',
    ],
  },
});
