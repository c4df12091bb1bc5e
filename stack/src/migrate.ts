import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Path of the official Supabase CLI's Node entry (npm `supabase`). */
export function supabaseCliEntry(): string {
  const pkgJson = require.resolve('supabase/package.json');
  return path.join(path.dirname(pkgJson), 'dist', 'supabase.js');
}

/** Runs the official Supabase CLI and resolves with its stdout; rejects with its output on failure. */
export function runSupabaseCli(args: string[], options: { cwd: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [supabaseCliEntry(), ...args], {
      cwd: options.cwd,
      env: {
        ...process.env,
        PGSSLMODE: 'disable',
        SUPABASE_TELEMETRY_DISABLED: '1',
        DO_NOT_TRACK: '1',
        CI: process.env.CI ?? '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`supabase ${args.slice(0, 2).join(' ')} exited with ${code}\n${stdout}\n${stderr}`));
    });
  });
}

/**
 * Applies supabase/migrations with `supabase db push` as the non-superuser `postgres` role, exactly as
 * it would run against a hosted project; the seed runs only when asked (first start of a data dir).
 */
export async function pushMigrations(options: {
  projectRoot: string;
  postgresUrl: string;
  includeSeed: boolean;
  log: (m: string) => void;
}): Promise<void> {
  const args = ['db', 'push', `--remote=${options.postgresUrl}`, '--yes'];
  if (options.includeSeed) args.push('--include-seed');
  const output = await runSupabaseCli(args, { cwd: options.projectRoot });
  for (const line of output.split('\n')) {
    if (/Applying migration|Seeding data|up to date/i.test(line)) options.log(`migrations: ${line.trim()}`);
  }
}
