import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from 'vite';
import { PROJECT_ROOT } from '../../stack/src/stack.ts';
import { parseHeadersFile } from '../../scripts/security-headers.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

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

  const server = http.createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://app.local').pathname);
    let file = path.join(outDir, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ''));
    const info = await stat(file).catch(() => null);
    if (!info || info.isDirectory()) file = path.join(outDir, 'index.html');
    res.writeHead(200, {
      ...securityHeaders,
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  project.provide('appUrl', `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(outDir, { recursive: true, force: true });
  };
}
