import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
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
 * SQL without its comments and whitespace, strings and dollar-quoted bodies kept as they are: the same for a
 * migration file and for the statements `db push` recorded from it, whatever way the CLI split them.
 */
export function sqlFingerprint(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const rest = sql.slice(i, i + 2);
    if (rest === '--') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
    } else if (rest === '/*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (sql[i] === "'" || sql[i] === '"') {
      const quote = sql[i]!;
      let j = i + 1;
      while (j < sql.length && !(sql[j] === quote && sql[j + 1] !== quote)) j += sql[j] === quote ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else {
      const tag = sql[i] === '$' ? /^\$(?:[A-Za-z_]\w*)?\$/.exec(sql.slice(i))?.[0] : undefined;
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        const stop = end === -1 ? sql.length : end + tag.length;
        out += sql.slice(i, stop);
        i = stop;
      } else {
        if (!/\s/.test(sql[i]!)) out += sql[i];
        i += 1;
      }
    }
  }
  return out.replace(/;/g, '');
}

/**
 * A database `db push` cannot move forward, refused with what happened and what to do. Until the first
 * production deploy, supabase/migrations is edited in place, one file per concern (supabase/README.md), so a
 * stack's database may have been built from other files: its history names versions this checkout does not
 * have (files folded into others or renamed), names a version whose file changed since it was applied (its
 * content then is not what the file says now, and `db push` would never apply it again), or lacks a version
 * older than its newest (which `db push` refuses to insert before the others).
 */
async function refuseForeignMigrationHistory(projectRoot: string, postgresUrl: string): Promise<void> {
  const dir = path.join(projectRoot, 'supabase', 'migrations');
  const local = new Map<string, string>();
  for (const file of (await readdir(dir).catch(() => [] as string[])).sort()) {
    const version = /^(\d+)_.*\.sql$/.exec(file)?.[1];
    if (version) local.set(version, file);
  }
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  let applied: { version: string; statements: string[] | null }[];
  try {
    // A new database has no history table yet (42P01): nothing to compare.
    applied = (
      await client
        .query<{ version: string; statements: string[] | null }>(
          'select version, statements from supabase_migrations.schema_migrations order by version',
        )
        .catch((error: { code?: string }) => {
          if (error.code === '42P01') return { rows: [] };
          throw error;
        })
    ).rows;
  } finally {
    await client.end();
  }
  const list = (names: string[]) => `${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}`;
  const problems: string[] = [];
  const unknown = applied.filter((row) => !local.has(row.version)).map((row) => row.version);
  if (unknown.length)
    problems.push(`${unknown.length} migration(s) supabase/migrations no longer has (${list(unknown)})`);
  const changed: string[] = [];
  for (const row of applied) {
    const file = local.get(row.version);
    if (!file || row.statements === null) continue;
    const now = sqlFingerprint(await readFile(path.join(dir, file), 'utf8'));
    if (sqlFingerprint(row.statements.join(';\n')) !== now) changed.push(file);
  }
  if (changed.length)
    problems.push(`${changed.length} migration(s) changed since they were applied (${list(changed)})`);
  const newest = applied.at(-1)?.version;
  const skipped = [...local.keys()].filter(
    (version) => newest && version < newest && !applied.some((row) => row.version === version),
  );
  if (skipped.length) {
    problems.push(
      `${skipped.length} migration(s) older than its newest that it never applied (${list(skipped.map((v) => local.get(v)!))})`,
    );
  }
  if (problems.length) {
    throw new Error(
      `this database was migrated from other migration files: ${problems.join('; ')}. Until the first deploy ` +
        `each concern's migration is edited in place, and files are folded or renamed (supabase/README.md, ` +
        `"How the files came to be"); a database built from older files cannot move forward. Delete the ` +
        `stack's data folder (.stack, or STACK_DATA_DIR) and start again: the demo data is seeded afresh.`,
    );
  }
}
