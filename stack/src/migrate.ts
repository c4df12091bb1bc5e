import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';

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
  await refuseForeignMigrationHistory(options.projectRoot, options.postgresUrl);
  const args = ['db', 'push', `--remote=${options.postgresUrl}`, '--yes'];
  if (options.includeSeed) args.push('--include-seed');
  const output = await runSupabaseCli(args, { cwd: options.projectRoot });
  for (const line of output.split('\n')) {
    if (/Applying migration|Seeding data|up to date/i.test(line)) options.log(`migrations: ${line.trim()}`);
  }
}

/**
 * A database whose migration history names versions this checkout does not have was built from other
 * migrations (e.g. before supabase/migrations was squashed into one file per concern): `db push` would stop
 * with 'Remote migration versions not found'. Say what happened and what to do instead.
 */
async function refuseForeignMigrationHistory(projectRoot: string, postgresUrl: string): Promise<void> {
  const local = new Set(
    (await readdir(path.join(projectRoot, 'supabase', 'migrations')).catch(() => []))
      .map((file) => /^(\d+)_/.exec(file)?.[1])
      .filter(Boolean),
  );
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    // A new database has no history table yet (42P01): nothing to compare.
    const { rows } = await client
      .query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version')
      .catch((error: { code?: string }) => {
        if (error.code === '42P01') return { rows: [] as { version: string }[] };
        throw error;
      });
    const unknown = rows.map((row) => row.version).filter((version) => !local.has(version));
    if (unknown.length) {
      throw new Error(
        `this database was migrated with ${unknown.length} migration(s) that supabase/migrations no longer has ` +
          `(${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', …' : ''}). The migrations were squashed ` +
          `into one file per concern on 2026-11-24 (supabase/README.md); a database built from the old files ` +
          `cannot move forward. Delete the stack's data folder (.stack, or STACK_DATA_DIR) and start again: the ` +
          `demo data is seeded afresh.`,
      );
    }
  } finally {
    await client.end();
  }
}
