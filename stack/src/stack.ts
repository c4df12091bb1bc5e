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
import { startPostgres } from './postgres.ts';
import { bootstrapDatabase } from './bootstrap.ts';
import { pushMigrations } from './migrate.ts';
import { ensureAnalystLogin } from './analyst.ts';
import { startPostgrest } from './postgrest.ts';
import { JwtKeys } from './jwt.ts';
import { loadSigningKeys } from './signing-keys.ts';
import { createGateway } from './gateway.ts';
import { gatewayRoutes } from './gateway-routes.ts';
import { listenOn } from './net.ts';
import { sendJson } from './http/json.ts';
import { seedBucketObjects } from './seed-objects.ts';
import { loadProjectConfig } from './project-config.ts';
import type { MountedService, ServiceContext } from './service.ts';
import { createAuthService } from './auth/index.ts';
import { startAuthMail } from './auth/mail/mailer.ts';
import { createStorageService } from './storage/index.ts';
import { createRealtimeService } from './realtime/index.ts';
import { createFunctionsService } from './functions/index.ts';
import type { FunctionRequestUsage } from './functions/dispatch.ts';
import type { FunctionLimits } from './functions/limits.ts';
import { startJobWorker } from './jobs/worker.ts';

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

/**
 * Starts Postgres, applies the Supabase compatibility layer and the project's migrations, then
 * PostgREST, Auth, Storage, Realtime, the functions runtime and the gateway on one origin.
 * Every failure after a child process starts tears down what already runs.
 */
export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const log = options.log ?? ((message: string) => console.log(message));
  const ephemeral = options.ephemeral ?? false;
  const supabaseDir = options.supabaseDir ?? path.join(PROJECT_ROOT, 'supabase');
  const projectRoot = path.dirname(supabaseDir);
  const config = loadProjectConfig(supabaseDir);
  const host = options.host ?? DEFAULT_HOST;
  const dataDir = ephemeral
    ? await mkdtemp(path.join(os.tmpdir(), 'mediateca-stack-'))
    : path.resolve(options.dataDir ?? path.join(PROJECT_ROOT, '.stack'));
  await mkdir(dataDir, { recursive: true });

  // The API's port is held from the first moment (answering 503 until every service is up): a port looked up
  // as free and bound only after the migrations would be free for anyone else, an outgoing connection's local
  // port included, for all that time. Postgres's port (when not given) is picked just before it binds it.
  const gateway = http.createServer((_req, res) => sendJson(res, 503, { message: 'The stack is starting' }));
  await listenOn(gateway, options.apiPort ?? (ephemeral ? 0 : DEFAULT_API_PORT), host).catch(async (error: unknown) => {
    if (ephemeral) await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const apiPort = (gateway.address() as AddressInfo).port;
  const apiUrl = `http://${host}:${apiPort}`;
  const closeGateway = () =>
    new Promise<void>((resolve) => {
      gateway.close(() => resolve());
      gateway.closeAllConnections();
    });

  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    // The gateway first: no request reaches a service being stopped.
    await closeGateway();
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => log(`stop: ${(error as Error).message}`));
    }
    cleanups.length = 0;
    if (ephemeral) await rm(dataDir, { recursive: true, force: true });
  };

  try {
    let dbPort = options.dbPort === 0 ? undefined : (options.dbPort ?? (ephemeral ? undefined : DEFAULT_DB_PORT));
    const startDatabase = () => startPostgres({ dataDir, port: dbPort, majorVersion: config.db.majorVersion, log });
    let postgres = await startDatabase();
    // A restart (restartDatabase) comes back on the same port.
    dbPort = postgres.port;
    cleanups.push(() => postgres.stop());
    await bootstrapDatabase(postgres.adminUrl, log);
    const seeding = postgres.created && (options.seed ?? !ephemeral);
    await pushMigrations({ projectRoot, postgresUrl: postgres.postgresUrl, includeSeed: seeding, log });
    const analystDbUrl = await ensureAnalystLogin(postgres.adminUrl, dbPort);

    // Auth, Storage and Realtime share these 20 connections: a request waiting for one when all are busy (or
    // for Postgres to accept a new one) fails after a while instead of waiting without end.
    const adminPool = new pg.Pool({ connectionString: postgres.adminUrl, max: 20, connectionTimeoutMillis: 30_000 });
    adminPool.on('error', (error) => log(`db pool: ${error.message}`));
    cleanups.push(() => adminPool.end());

    const jwtKeys = new JwtKeys(
      JWT_SECRET,
      config.auth.signingKeysPath ? await loadSigningKeys(config.auth.signingKeysPath) : [],
    );
    const postgrest = await startPostgrest({
      dbPort,
      // PostgREST takes a JWKS as its secret: asymmetric tokens and HS256 ones both pass.
      jwtSecret: jwtKeys.asymmetric.length ? JSON.stringify(jwtKeys.servicesJwks()) : JWT_SECRET,
      schemas: config.api.schemas,
      extraSearchPath: config.api.extraSearchPath,
      maxRows: config.api.maxRows,
      log,
    });
    // No `notify pgrst` here: PostgREST is ready only once it has loaded the schema the migrations left, and a
    // reload would run its whole connection worker again (a second "Starting PostgREST" and a flushed pool).
    cleanups.push(() => postgrest.stop());

    const context = (name: string): ServiceContext => ({
      adminPool,
      adminDbUrl: postgres.adminUrl,
      jwtSecret: JWT_SECRET,
      jwtKeys,
      anonKey: ANON_KEY,
      serviceRoleKey: SERVICE_ROLE_KEY,
      apiUrl,
      dataDir: path.join(dataDir, name),
      log: (message) => log(`${name}: ${message}`),
    });
    const mount = async <T extends MountedService>(name: string, create: (ctx: ServiceContext) => Promise<T>) => {
      const ctx = context(name);
      await mkdir(ctx.dataDir, { recursive: true });
      const service = await create(ctx);
      cleanups.push(() => service.close());
      return service;
    };
    const { mailer, catcher } = await startAuthMail(config, {
      host,
      useConfigPorts: !ephemeral && apiPort === DEFAULT_API_PORT,
    });
    if (catcher) cleanups.push(() => catcher.close());
    const auth = await mount('auth', (ctx) =>
      createAuthService(ctx, config.auth, mailer, { rateLimitHeader: options.authRateLimitHeader }),
    );
    const storage = await mount('storage', (ctx) => createStorageService(ctx, config.storage));
    const realtime = await mount('realtime', (ctx) => createRealtimeService(ctx));
    const functions = await mount('functions', (ctx) =>
      createFunctionsService(ctx, {
        functionsDir: path.join(supabaseDir, 'functions'),
        postgresUrl: postgres.postgresUrl,
        functions: config.functions,
        secrets: options.functionSecrets ?? {},
        limits: options.functionLimits,
      }),
    );

    createGateway(gateway, {
      anonKey: ANON_KEY,
      serviceRoleKey: SERVICE_ROLE_KEY,
      publishableKey: PUBLISHABLE_KEY,
      secretKey: SECRET_KEY,
      log,
      routes: gatewayRoutes(
        { auth, storage, realtime, functions, postgrestUrl: postgrest.url, postgrestAdminUrl: postgrest.adminUrl },
        options.gatewayKeyAuth ?? true,
      ),
    });

    if (seeding) {
      await seedBucketObjects({
        apiUrl,
        serviceRoleKey: SERVICE_ROLE_KEY,
        jwtSecret: JWT_SECRET,
        adminPool,
        seedObjects: config.storage.seedObjects,
        log,
      });
    }

    // Started last, so it is stopped first: no job call is cut off by the functions runtime going away.
    if (options.jobWorker ?? true) {
      const worker = await startJobWorker({
        adminDbUrl: postgres.adminUrl,
        runJobsUrl: `${apiUrl}/functions/v1/run-jobs`,
        serviceRoleKey: SERVICE_ROLE_KEY,
        log: (message) => log(`jobs: ${message}`),
      });
      cleanups.push(() => worker.close());
    }

    return {
      apiUrl,
      anonKey: ANON_KEY,
      serviceRoleKey: SERVICE_ROLE_KEY,
      publishableKey: PUBLISHABLE_KEY,
      secretKey: SECRET_KEY,
      jwtSecret: JWT_SECRET,
      dbUrl: postgres.postgresUrl,
      adminDbUrl: postgres.adminUrl,
      analystDbUrl,
      dataDir,
      dbPort,
      apiPort,
      postgrestUrl: postgrest.url,
      mailUrl: catcher?.url ?? null,
      functionLimits: functions.limits,
      functionUsage: () => functions.usage(),
      stop: stopAll,
      restartDatabase: async () => {
        await postgres.crash();
        postgres = await startDatabase();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
