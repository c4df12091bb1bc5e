import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Fills Deno's cache with every function's `npm:` packages, exactly as supabase/functions/deno.lock pins
 * them, before the functions runtime reports ready, so no function call (the first included) waits on or
 * needs the registry. From the cache alone when it already holds them (works offline); otherwise the
 * registry is asked once, here, at stack start.
 */
export async function cacheFunctionDependencies(options: {
  deno: string;
  functionsDir: string;
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
}): Promise<void> {
  const config = path.join(options.functionsDir, 'deno.json');
  const lock = path.join(options.functionsDir, 'deno.lock');
  if (!existsSync(config)) return;
  const entries = readdirSync(options.functionsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
    .map((entry) => path.join(options.functionsDir, entry.name, 'index.ts'))
    .filter((entry) => existsSync(entry));
  if (!entries.length) return;
  const args = ['install', '--entrypoint', `--config=${config}`];
  if (existsSync(lock)) args.push(`--lock=${lock}`, '--frozen');
  const run = (extra: string[]) =>
    new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(options.deno, [...args, ...extra, ...entries], {
        cwd: options.functionsDir,
        env: options.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code, output }));
    });
  if ((await run(['--cached-only'])).code === 0) return;
  options.log('caching the functions’ npm packages (first start of this install)');
  const fetched = await run([]);
  if (fetched.code !== 0) {
    // Not fatal: the runtime still starts, and functions whose packages are missing say so when called.
    options.log(`could not cache the functions’ packages: ${fetched.output.trim().split('\n').slice(-3).join(' ')}`);
  }
}
