import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const bootstrapDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bootstrap');

/**
 * Applies the Supabase compatibility layer (roles, auth, storage, realtime, extensions). Each file in
 * `bootstrap/` runs once, in its own transaction together with the row that records it, so a crash
 * mid-way leaves either the whole file applied or none of it. New files are picked up by existing data
 * directories on their next start.
 */
export async function bootstrapDatabase(adminUrl: string, log: (m: string) => void): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`
      create schema if not exists _local_stack;
      revoke all on schema _local_stack from public;
      create table if not exists _local_stack.bootstrap (
        name text primary key,
        applied_at timestamptz not null default now()
      );`);
    const applied = new Set(
      (await client.query<{ name: string }>('select name from _local_stack.bootstrap')).rows.map((r) => r.name),
    );
    const files = (await readdir(bootstrapDir)).filter((f) => f.endsWith('.sql')).sort();
    for (const file of files) {
      if (applied.has(file)) continue;
      const sql = await readFile(path.join(bootstrapDir, file), 'utf8');
      log(`bootstrap: ${file}`);
      await client.query('begin');
      try {
        await client.query(sql);
        await client.query('insert into _local_stack.bootstrap (name) values ($1)', [file]);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw new Error(`bootstrap ${file} failed: ${(error as Error).message}`, { cause: error });
      }
    }
  } finally {
    await client.end();
  }
}
