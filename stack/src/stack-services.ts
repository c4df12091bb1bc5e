import { mkdir } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import type pg from 'pg';
import { ANON_KEY, JWT_SECRET, PUBLISHABLE_KEY, SECRET_KEY, SERVICE_ROLE_KEY } from './config.ts';
import type { JwtKeys } from './jwt.ts';
import type { ProjectConfig } from './project-config.ts';
import type { MountedService, ServiceContext } from './service.ts';
import { createGateway } from './gateway.ts';
import { gatewayRoutes } from './gateway-routes.ts';
import { createAuthService } from './auth/index.ts';
import { startAuthMail } from './auth/mail/mailer.ts';
import { createStorageService } from './storage/index.ts';
import { createRealtimeService } from './realtime/index.ts';
import { createFunctionsService } from './functions/index.ts';
import type { FunctionLimits } from './functions/limits.ts';
import { startJobWorker } from './jobs/worker.ts';

type Log = (message: string) => void;
type AddCleanup = (cleanup: () => Promise<void>) => void;

/** What every service of a stack shares: its database, keys, origin and the place of its data. */
export interface ServicesSetting {
  config: ProjectConfig;
  supabaseDir: string;
  dataDir: string;
  host: string;
  apiUrl: string;
  /** Whether the mail catcher takes config.toml's ports (a persistent stack on the default API port). */
  useConfigPorts: boolean;
  adminPool: pg.Pool;
  adminDbUrl: string;
  postgresUrl: string;
  jwtKeys: JwtKeys;
  log: Log;
  addCleanup: AddCleanup;
}

/** A service's context: its own data directory under the stack's and its name before each log line. */
function serviceContext(setting: ServicesSetting, name: string): ServiceContext {
  return {
    adminPool: setting.adminPool,
    adminDbUrl: setting.adminDbUrl,
    jwtSecret: JWT_SECRET,
    jwtKeys: setting.jwtKeys,
    anonKey: ANON_KEY,
    serviceRoleKey: SERVICE_ROLE_KEY,
    apiUrl: setting.apiUrl,
    dataDir: path.join(setting.dataDir, name),
    log: (message) => setting.log(`${name}: ${message}`),
  };
}

async function mount<T extends MountedService>(
  setting: ServicesSetting,
  name: string,
  create: (ctx: ServiceContext) => Promise<T>,
): Promise<T> {
  const ctx = serviceContext(setting, name);
  await mkdir(ctx.dataDir, { recursive: true });
  const service = await create(ctx);
  setting.addCleanup(() => service.close());
  return service;
}

/** Auth (with its mail, and the local mail catcher when config.toml asks for one), Storage, Realtime, functions. */
export async function mountServices(
  setting: ServicesSetting,
  options: {
    authRateLimitHeader: string | null | undefined;
    functionSecrets: Record<string, string>;
    functionLimits: Partial<FunctionLimits> | undefined;
  },
) {
  const { config } = setting;
  const { mailer, catcher } = await startAuthMail(config, {
    host: setting.host,
    useConfigPorts: setting.useConfigPorts,
  });
  if (catcher) setting.addCleanup(() => catcher.close());
  const auth = await mount(setting, 'auth', (ctx) =>
    createAuthService(ctx, config.auth, mailer, { rateLimitHeader: options.authRateLimitHeader }),
  );
  const storage = await mount(setting, 'storage', (ctx) => createStorageService(ctx, config.storage));
  const realtime = await mount(setting, 'realtime', (ctx) => createRealtimeService(ctx));
  const functions = await mount(setting, 'functions', (ctx) =>
    createFunctionsService(ctx, {
      functionsDir: path.join(setting.supabaseDir, 'functions'),
      postgresUrl: setting.postgresUrl,
      functions: config.functions,
      secrets: options.functionSecrets,
      limits: options.functionLimits,
    }),
  );
  return { auth, storage, realtime, functions, catcher };
}

/** The held API port starts answering for every service, behind the keys hosted Supabase's gateway checks. */
export function openGateway(
  gateway: http.Server,
  services: Awaited<ReturnType<typeof mountServices>>,
  postgrest: { url: string; adminUrl: string },
  keyAuth: boolean,
  log: Log,
) {
  const { auth, storage, realtime, functions } = services;
  createGateway(gateway, {
    anonKey: ANON_KEY,
    serviceRoleKey: SERVICE_ROLE_KEY,
    publishableKey: PUBLISHABLE_KEY,
    secretKey: SECRET_KEY,
    log,
    routes: gatewayRoutes(
      { auth, storage, realtime, functions, postgrestUrl: postgrest.url, postgrestAdminUrl: postgrest.adminUrl },
      keyAuth,
    ),
  });
}

/**
 * The worker that works off server jobs as pg_cron + pg_net do on hosted Supabase. Started last, so it is
 * stopped first: no job call is cut off by the functions runtime going away.
 */
export async function startJobs(adminDbUrl: string, apiUrl: string, log: Log, addCleanup: AddCleanup) {
  const worker = await startJobWorker({
    adminDbUrl,
    runJobsUrl: `${apiUrl}/functions/v1/run-jobs`,
    serviceRoleKey: SERVICE_ROLE_KEY,
    log: (message) => log(`jobs: ${message}`),
  });
  addCleanup(() => worker.close());
}
