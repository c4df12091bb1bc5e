import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from 'vite';
import { PROJECT_ROOT } from '@mediateca/stack';
import { parseHeadersFile } from '../../scripts/security-headers.ts';
import { serveBuiltApp } from '../../scripts/serve-built-app.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
  }
}

/**
 * Builds the app for the ephemeral stack the global stack setup started (its URL and anon key go in as the
 * VITE_* variables, as on any deployment) and serves it like a static host with a history-mode fallback and
 * the build's `_headers` (its CSP included), so every e2e test runs under the production security headers.
 */
export default async function setup(project: TestProject) {
  const stack = project.getProvidedContext().stack;
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-app-'));
  process.env.VITE_SUPABASE_URL = stack.apiUrl;
  process.env.VITE_SUPABASE_ANON_KEY = stack.anonKey;
  await build({ root: PROJECT_ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const securityHeaders = parseHeadersFile(await readFile(path.join(outDir, '_headers'), 'utf8'));

  const site = await serveBuiltApp(outDir, securityHeaders);
  project.provide('appUrl', site.url);
  return async () => {
    await site.close();
    await rm(outDir, { recursive: true, force: true });
  };
}
