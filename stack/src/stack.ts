import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  ANON_KEY,
  DEFAULT_API_PORT,
  DEFAULT_DB_PORT,
  DEFAULT_HOST,
  JWT_SECRET,
  PUBLISHABLE_KEY,
  SECRET_KEY,
  SERVICE_ROLE_KEY,
} from './config.ts';
import { JwtKeys } from './jwt.ts';
import { loadSigningKeys } from './signing-keys.ts';
import { listenOn } from './net.ts';
import { sendJson } from './http/json.ts';
import { seedBucketObjects } from './seed-objects.ts';
import { loadProjectConfig, type ProjectConfig } from './project-config.ts';
import type { FunctionRequestUsage } from './functions/dispatch.ts';
import type { FunctionLimits } from './functions/limits.ts';
import { startDatabaseWithSchema, startPostgrestFor, type StackDatabase } from './stack-database.ts';
import { mountServices, openGateway, startJobs } from './stack-services.ts';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface StackOptions {
  /** Where Postgres data, stored objects and uploads live. Ephemeral stacks get a temp dir. */
  dataDir?: string;
  /** A temp data dir and free ports, all removed by stop(). */
  ephemeral?: boolean;
  host?: string;
  /** 0: any free port (what an ephemeral stack uses when none is given). */
  apiPort?: number;
  /** 0: any free port (what an ephemeral stack uses when none is given). */
  dbPort?: number;
  /** Run supabase/seed.sql when the cluster is new (default: true for persistent stacks, false for ephemeral). */
  seed?: boolean;
  /** Directory holding config.toml, migrations/, functions/, seed.sql. */
  supabaseDir?: string;
  /** Extra secrets for edge functions, as `supabase secrets set` would provide (on top of functions/.env). */
  functionSecrets?: Record<string, string>;
  /**
   * Edge Function limits to apply instead of hosted's free plan (2 s CPU, 256 MB, 150 s, 20 MB bundles,
   * `text/html` served as `text/plain`); also `STACK_FUNCTIONS_*` variables. Tests shorten the wall clock.
   */
  functionLimits?: Partial<FunctionLimits>;
  /**
   * The header Auth's `[auth.rate_limit]` limits key on, as GOTRUE_RATE_LIMIT_HEADER (default X-Forwarded-For,
   * as hosted Supabase's edge sets it; env STACK_AUTH_RATE_LIMIT_HEADER). A request without it is not limited,
   * like every request under `supabase start`; null turns the limits off.
   */
  authRateLimitHeader?: string | null;
  /**
   * Refuse requests that carry no key at all with Kong key-auth's 401, as hosted Supabase does (default: true).
   * `supabase start` has no key-auth; the official suites' runner turns it off for postgrest-js.
   */
  gatewayKeyAuth?: boolean;
  /** Work off server jobs (post-processing, feed, trash) as pg_cron + pg_net do on hosted Supabase (default: true). */
  jobWorker?: boolean;
  log?: (message: string) => void;
}

export interface RunningStack {
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
  jwtSecret: string;
  /** Connection string for the non-superuser `postgres` role (what SUPABASE_DB_URL is on Supabase). */
  dbUrl: string;
  /** Superuser connection, for test fixtures that must bypass everything. */
  adminDbUrl: string;
  /** The read-only `analyst_local` login, or null when the migrations define no `analyst` role. */
  analystDbUrl: string | null;
  dataDir: string;
  dbPort: number;
  apiPort: number;
  /** PostgREST's own origin, bypassing the gateway (benchmarks compare the two). */
  postgrestUrl: string;
  /** The local mail catcher's web page; its JSON API is under /api/messages (stack/src/mail-catcher.ts). */
  mailUrl: string | null;
  /** The Edge Function limits in force. */
  functionLimits: FunctionLimits;
  /** What each recent function request used (CPU, memory, wall clock), newest last. */
  functionUsage(): FunctionRequestUsage[];
  stop(): Promise<void>;
  /**
   * Stops Postgres at once (every connection is cut) and starts it again on the same data and port, as a
   * managed database's crash or failover would; every service reconnects by itself. For fault tests.
   */
  restartDatabase(): Promise<void>;
}

/** Where a stack's files come from and go, as its options resolve; an ephemeral stack's data dir is new. */
interface StackLayout {
  log: (message: string) => void;
  ephemeral: boolean;
  supabaseDir: string;
  projectRoot: string;
  config: ProjectConfig;
  host: string;
  dataDir: string;
}

async function resolveLayout(options: StackOptions): Promise<StackLayout> {
  const ephemeral = options.ephemeral ?? false;
  const supabaseDir = options.supabaseDir ?? path.join(PROJECT_ROOT, 'supabase');
  const layout = {
    log: options.log ?? ((message: string) => console.log(message)),
    ephemeral,
    supabaseDir,
    projectRoot: path.dirname(supabaseDir),
    config: loadProjectConfig(supabaseDir),
    host: options.host ?? DEFAULT_HOST,
    dataDir: ephemeral
      ? await mkdtemp(path.join(os.tmpdir(), 'mediateca-stack-'))
      : path.resolve(options.dataDir ?? path.join(PROJECT_ROOT, '.stack')),
  };
  await mkdir(layout.dataDir, { recursive: true });
  return layout;
}

/**
 * Binds the API's port before anything else, answering 503 until every service is up: a port looked up as
 * free and bound only after the migrations would be free for anyone else, an outgoing connection's local
 * port included, for all that time. An ephemeral stack that cannot have it removes its data dir.
 */
async function holdApiPort(options: StackOptions, layout: StackLayout) {
  const gateway = http.createServer((_req, res) => sendJson(res, 503, { message: 'The stack is starting' }));
  const port = options.apiPort ?? (layout.ephemeral ? 0 : DEFAULT_API_PORT);
  await listenOn(gateway, port, layout.host).catch(async (error: unknown) => {
    if (layout.ephemeral) await rm(layout.dataDir, { recursive: true, force: true });
    throw error;
  });
  const apiPort = (gateway.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      gateway.close(() => resolve());
      gateway.closeAllConnections();
    });
  return { gateway, apiPort, apiUrl: `http://${layout.host}:${apiPort}`, close };
}

/** What a start has set running, undone in reverse order once the gateway no longer lets requests in. */
function teardown(layout: StackLayout, closeGateway: () => Promise<void>) {
  const cleanups: Array<() => Promise<void>> = [];
  return {
    add: (cleanup: () => Promise<void>) => void cleanups.push(cleanup),
    stopAll: async () => {
      // The gateway first: no request reaches a service being stopped.
      await closeGateway();
      for (const cleanup of cleanups.reverse()) {
        await cleanup().catch((error: unknown) => layout.log(`stop: ${(error as Error).message}`));
      }
      cleanups.length = 0;
      if (layout.ephemeral) await rm(layout.dataDir, { recursive: true, force: true });
    },
  };
}

/** Postgres's port: any free one for an ephemeral stack or when 0 is asked, else the given or default one. */
function databasePort(options: StackOptions, ephemeral: boolean): number | undefined {
  if (options.dbPort === 0) return undefined;
  return options.dbPort ?? (ephemeral ? undefined : DEFAULT_DB_PORT);
}

/**
 * Starts Postgres, applies the Supabase compatibility layer and the project's migrations, then
 * PostgREST, Auth, Storage, Realtime, the functions runtime and the gateway on one origin.
 * Every failure after a child process starts tears down what already runs.
 */
export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const layout = await resolveLayout(options);
  const { log, config } = layout;
  const api = await holdApiPort(options, layout);
  const running = teardown(layout, api.close);
  try {
    const database = await startDatabaseWithSchema({
      dataDir: layout.dataDir,
      port: databasePort(options, layout.ephemeral),
      config,
      projectRoot: layout.projectRoot,
      seed: options.seed ?? !layout.ephemeral,
      log,
      addCleanup: running.add,
    });
    // Auth, Storage and Realtime share these 20 connections: a request waiting for one when all are busy (or
    // for Postgres to accept a new one) fails after a while instead of waiting without end.
    const adminPool = new pg.Pool({ connectionString: database.adminUrl, max: 20, connectionTimeoutMillis: 30_000 });
    adminPool.on('error', (error) => log(`db pool: ${error.message}`));
    running.add(() => adminPool.end());

    const signingKeys = config.auth.signingKeysPath ? await loadSigningKeys(config.auth.signingKeysPath) : [];
    const jwtKeys = new JwtKeys(JWT_SECRET, signingKeys);
    const postgrest = await startPostgrestFor(config, database.port, jwtKeys, log);
    running.add(() => postgrest.stop());

    const services = await mountServices(
      {
        ...layout,
        apiUrl: api.apiUrl,
        useConfigPorts: !layout.ephemeral && api.apiPort === DEFAULT_API_PORT,
        adminPool,
        adminDbUrl: database.adminUrl,
        postgresUrl: database.postgresUrl,
        jwtKeys,
        addCleanup: running.add,
      },
      {
        authRateLimitHeader: options.authRateLimitHeader,
        functionSecrets: options.functionSecrets ?? {},
        functionLimits: options.functionLimits,
      },
    );
    openGateway(api.gateway, services, postgrest, options.gatewayKeyAuth ?? true, log);
    if (database.seeding) {
      const { seedObjects } = config.storage;
      await seedBucketObjects({
        apiUrl: api.apiUrl,
        serviceRoleKey: SERVICE_ROLE_KEY,
        jwtSecret: JWT_SECRET,
        adminPool,
        seedObjects,
        log,
      });
    }
    if (options.jobWorker ?? true) await startJobs(database.adminUrl, api.apiUrl, log, running.add);

    return describeRunningStack(layout, api, database, postgrest, services, running.stopAll);
  } catch (error) {
    await running.stopAll();
    throw error;
  }
}

/** The handle startStack answers: where each part listens, the keys, and the stop and restart switches. */
function describeRunningStack(
  layout: StackLayout,
  api: { apiUrl: string; apiPort: number },
  database: StackDatabase,
  postgrest: { url: string },
  services: Awaited<ReturnType<typeof mountServices>>,
  stop: () => Promise<void>,
): RunningStack {
  const { functions, catcher } = services;
  return {
    apiUrl: api.apiUrl,
    anonKey: ANON_KEY,
    serviceRoleKey: SERVICE_ROLE_KEY,
    publishableKey: PUBLISHABLE_KEY,
    secretKey: SECRET_KEY,
    jwtSecret: JWT_SECRET,
    dbUrl: database.postgresUrl,
    adminDbUrl: database.adminUrl,
    analystDbUrl: database.analystDbUrl,
    dataDir: layout.dataDir,
    dbPort: database.port,
    apiPort: api.apiPort,
    postgrestUrl: postgrest.url,
    mailUrl: catcher?.url ?? null,
    functionLimits: functions.limits,
    functionUsage: () => functions.usage(),
    stop,
    restartDatabase: () => database.restart(),
  };
}
