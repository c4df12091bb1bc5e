import path from 'node:path';
import pg from 'pg';
import { backupLibrary, restoreLibrary } from './backup.ts';
import { DEFAULT_DB_PORT } from './config.ts';
import { adminUrlFor } from './postgres.ts';
import { startStack, PROJECT_ROOT } from './stack.ts';
import { freePort } from './net.ts';

/**
 * `npm run backup [-- <archive>]` and `npm run restore -- <archive>` for the local stack's library
 * (`.stack/`, or STACK_DATA_DIR). A running `npm start` is used as it is; otherwise the stack is started for
 * the duration, without its job worker (nothing changes the library meanwhile) and, for a restore into a new
 * data directory, without the demo seed (the archive replaces it anyway).
 */
const dataDir = path.resolve(process.env.STACK_DATA_DIR ?? path.join(PROJECT_ROOT, '.stack'));
const dbPort = Number(process.env.STACK_DB_PORT ?? DEFAULT_DB_PORT);

/** The admin URL of the Postgres `npm start` runs on this data directory, or null when none is running. */
async function runningDatabase(): Promise<string | null> {
  const url = adminUrlFor(dbPort);
  const db = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await db.connect();
    const { rows } = await db.query<{ data_directory: string }>('show data_directory');
    return path.resolve(rows[0]!.data_directory) === path.join(dataDir, 'pgdata') ? url : null;
  } catch {
    return null;
  } finally {
    await db.end().catch(() => {});
  }
}

async function withLibrary<T>(restoring: boolean, work: (adminDbUrl: string) => Promise<T>): Promise<T> {
  const running = await runningDatabase();
  if (running) return work(running);
  const stack = await startStack({
    dataDir,
    seed: !restoring,
    jobWorker: false,
    apiPort: await freePort(),
    dbPort: await freePort(),
    log: () => {},
  });
  try {
    return await work(stack.adminDbUrl);
  } finally {
    await stack.stop();
  }
}

const formatBytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const [command, archiveArg] = process.argv.slice(2);
  if (command === 'backup') {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    const archive = path.resolve(archiveArg ?? path.join(PROJECT_ROOT, 'backups', `mediateca-${stamp}.tar.gz`));
    const manifest = await withLibrary(false, (adminDbUrl) => backupLibrary({ adminDbUrl, dataDir, archive }));
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    const bytes = manifest.objects.reduce((sum, o) => sum + o.size, 0);
    console.log(
      `Backup written: ${archive}\n  ${rows} rows in ${manifest.tables.length} tables, ${manifest.objects.length} objects (${formatBytes(bytes)})`,
    );
  } else if (command === 'restore' && archiveArg) {
    const archive = path.resolve(archiveArg);
    const manifest = await withLibrary(true, (adminDbUrl) => restoreLibrary({ adminDbUrl, dataDir, archive }));
    console.log(`Restored ${archive} (taken ${manifest.createdAt}) into ${dataDir}`);
  } else {
    console.error('Usage: npm run backup [-- <archive.tar.gz>]   |   npm run restore -- <archive.tar.gz>');
    process.exitCode = 2;
  }
}

main().catch((error: unknown) => {
  console.error(`Failed: ${(error as Error).message}`);
  process.exitCode = 1;
});
