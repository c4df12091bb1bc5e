import type { ProjectConfig } from './project-config.ts';
import { startPostgres } from './postgres.ts';
import { bootstrapDatabase } from './bootstrap.ts';
import { pushMigrations } from './migrate.ts';
import { ensureAnalystLogin } from './analyst.ts';
import { startPostgrest } from './postgrest.ts';
import { JWT_SECRET } from './config.ts';
import type { JwtKeys } from './jwt.ts';

/** A started stack's Postgres, ready for the services: compatibility layer, migrations and seed applied. */
export interface StackDatabase {
  port: number;
  adminUrl: string;
  postgresUrl: string;
  /** Whether this start seeds: a new cluster, and seeding asked for (or the default). */
  seeding: boolean;
  analystDbUrl: string | null;
  /** Stops Postgres at once and starts it again on the same data and port (a crash or a failover). */
  restart(): Promise<void>;
}

/**
 * Starts Postgres on `port` (undefined: one picked just before it binds it), applies the Supabase
 * compatibility layer and the project's migrations (with supabase/seed.sql when the cluster is new and
 * `seed` allows it), and makes sure the analyst login exists. Its stop is handed to `addCleanup` as soon
 * as it runs, before the migrations (which may fail), and stops whichever Postgres runs then, one a restart
 * started included.
 */
export async function startDatabaseWithSchema(options: {
  dataDir: string;
  port: number | undefined;
  config: ProjectConfig;
  projectRoot: string;
  seed: boolean;
  log: (message: string) => void;
  addCleanup: (cleanup: () => Promise<void>) => void;
}): Promise<StackDatabase> {
  const { dataDir, config, log } = options;
  let port = options.port;
  const start = () => startPostgres({ dataDir, port, majorVersion: config.db.majorVersion, log });
  let postgres = await start();
  // A restart comes back on the same port.
  port = postgres.port;
  options.addCleanup(() => postgres.stop());
  await bootstrapDatabase(postgres.adminUrl, log);
  const seeding = postgres.created && options.seed;
  await pushMigrations({
    projectRoot: options.projectRoot,
    postgresUrl: postgres.postgresUrl,
    includeSeed: seeding,
    log,
  });
  const analystDbUrl = await ensureAnalystLogin(postgres.adminUrl, port);
  return {
    port,
    adminUrl: postgres.adminUrl,
    postgresUrl: postgres.postgresUrl,
    seeding,
    analystDbUrl,
    restart: async () => {
      await postgres.crash();
      postgres = await start();
    },
  };
}

/** PostgREST on the project's API settings, trusting the tokens the stack's keys sign. */
export function startPostgrestFor(
  config: ProjectConfig,
  dbPort: number,
  jwtKeys: JwtKeys,
  log: (message: string) => void,
) {
  // No `notify pgrst` afterwards: PostgREST is ready only once it has loaded the schema the migrations left, and
  // a reload would run its whole connection worker again (a second "Starting PostgREST" and a flushed pool).
  return startPostgrest({
    dbPort,
    // PostgREST takes a JWKS as its secret: asymmetric tokens and HS256 ones both pass.
    jwtSecret: jwtKeys.asymmetric.length ? JSON.stringify(jwtKeys.servicesJwks()) : JWT_SECRET,
    schemas: config.api.schemas,
    extraSearchPath: config.api.extraSearchPath,
    maxRows: config.api.maxRows,
    log,
  });
}
