import { defineConfig } from 'vitest/config';

/**
 * The stack's own tests: its fidelity to Supabase, through the official clients, against this repository's
 * project. A project of the root's vitest.config.ts (`npx vitest run --project stack`); its unit tests beside
 * the code in src/ run with the app's unit tests. They share the integration tests' stack
 * (tests/helpers/global-stack.ts) and, like them, run one file at a time.
 */
export default defineConfig({
  test: {
    name: 'stack',
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['../tests/helpers/global-stack.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
