import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { z } from 'zod';

/** The parts of `supabase/config.toml` the local stack honours, with `supabase start` defaults. */
export interface ProjectConfig {
  projectId: string;
  /** `[db] major_version`: the Postgres major a hosted project and `supabase start` run. */
  db: { majorVersion: number };
  api: { schemas: string[]; extraSearchPath: string[]; maxRows: number };
  auth: {
    siteUrl: string;
    jwtExpiry: number;
    refreshTokenRotation: boolean;
    refreshTokenReuseInterval: number;
    enableSignup: boolean;
    minimumPasswordLength: number;
    /** `[auth.rate_limit]`, requests per 5 minutes per address, as GoTrue applies them. */
    rateLimit: { tokenRefresh: number; signInSignUps: number; tokenVerifications: number };
  };
  storage: {
    fileSizeLimit: number;
    imageTransformationEnabled: boolean;
    /** [storage.buckets.NAME] objects_path: local folders whose files seed a bucket (absolute paths). */
    seedObjects: Array<{ bucket: string; objectsPath: string }>;
  };
  functions: Record<string, { verifyJwt: boolean }>;
}

const SIZE = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?i?B)?\s*$/i;

/** "50MiB", "1GB", 1000 → bytes, as the CLI parses sizes. */
export function parseSize(value: unknown, fallback: number): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return fallback;
  const match = SIZE.exec(value);
  if (!match) return fallback;
  const amount = Number(match[1]);
  const unit = (match[2] ?? 'B').toUpperCase();
  const factors: Record<string, number> = {
    B: 1,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
    TB: 1e12,
    KIB: 1024,
    MIB: 1024 ** 2,
    GIB: 1024 ** 3,
    TIB: 1024 ** 4,
  };
  return Math.round(amount * (factors[unit] ?? 1));
}

// Only the keys the stack reads are checked; every other key of config.toml is left to the Supabase CLI.
// `prefault`: a missing table is parsed as `{}`, so the defaults of its keys apply.
const section = <T extends z.ZodRawShape>(shape: T) => z.object(shape).prefault({} as never);
const count = z.number().int().nonnegative();
const size = z.union([
  z.number().int().nonnegative(),
  z.string().regex(SIZE, 'must be a size such as "50MiB" or "1GB"'),
]);

const configSchema = z.object({
  project_id: z.string().default('local'),
  db: section({ major_version: z.number().int().positive().default(17) }),
  api: section({
    schemas: z.array(z.string()).default(['public', 'graphql_public']),
    extra_search_path: z.array(z.string()).default(['public', 'extensions']),
    max_rows: count.default(1000),
  }),
  auth: section({
    site_url: z.string().default('http://127.0.0.1:3000'),
    jwt_expiry: count.default(3600),
    enable_refresh_token_rotation: z.boolean().default(true),
    refresh_token_reuse_interval: count.default(10),
    enable_signup: z.boolean().default(true),
    minimum_password_length: count.default(6),
    rate_limit: section({
      token_refresh: count.default(150),
      sign_in_sign_ups: count.default(30),
      token_verifications: count.default(30),
    }),
    email: section({ enable_signup: z.boolean().default(true) }),
  }),
  storage: section({
    file_size_limit: size.default('50MiB'),
    image_transformation: section({ enabled: z.boolean().default(false) }),
    buckets: z.record(z.string(), z.object({ objects_path: z.string().optional() })).default({}),
  }),
  functions: z.record(z.string(), z.object({ verify_jwt: z.boolean().default(true) })).default({}),
});

/** Checks config.toml's values; a wrong one stops the start with its key: `auth.jwt_expiry: expected number…`. */
export function parseProjectConfig(raw: unknown, supabaseDir: string, file = 'config.toml'): ProjectConfig {
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`${file}: ${problems.join('; ')}`);
  }
  const { project_id, db, api, auth, storage, functions } = result.data;
  return {
    projectId: project_id,
    db: { majorVersion: db.major_version },
    api: { schemas: api.schemas, extraSearchPath: api.extra_search_path, maxRows: api.max_rows },
    auth: {
      siteUrl: auth.site_url,
      jwtExpiry: auth.jwt_expiry,
      refreshTokenRotation: auth.enable_refresh_token_rotation,
      refreshTokenReuseInterval: auth.refresh_token_reuse_interval,
      enableSignup: auth.enable_signup && auth.email.enable_signup,
      minimumPasswordLength: auth.minimum_password_length,
      rateLimit: {
        tokenRefresh: auth.rate_limit.token_refresh,
        signInSignUps: auth.rate_limit.sign_in_sign_ups,
        tokenVerifications: auth.rate_limit.token_verifications,
      },
    },
    storage: {
      fileSizeLimit: parseSize(storage.file_size_limit, 50 * 1024 * 1024),
      imageTransformationEnabled: storage.image_transformation.enabled,
      seedObjects: Object.entries(storage.buckets).flatMap(([bucket, { objects_path }]) =>
        objects_path ? [{ bucket, objectsPath: path.resolve(supabaseDir, objects_path) }] : [],
      ),
    },
    functions: Object.fromEntries(
      Object.entries(functions).map(([name, { verify_jwt }]) => [name, { verifyJwt: verify_jwt }]),
    ),
  };
}

export function loadProjectConfig(supabaseDir: string): ProjectConfig {
  const file = path.join(supabaseDir, 'config.toml');
  const raw = existsSync(file) ? parse(readFileSync(file, 'utf8')) : {};
  return parseProjectConfig(raw, supabaseDir, path.relative(process.cwd(), file) || file);
}
