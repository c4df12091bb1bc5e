import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';

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
    /** `additional_redirect_urls`: where e-mail links may send the browser besides site_url (globs allowed). */
    additionalRedirectUrls: string[];
    /** `[auth.email]`: one-time codes and how often one address may be mailed. */
    email: {
      otpLength: number;
      otpExpiry: number;
      maxFrequencySeconds: number;
      securePasswordChange: boolean;
      /** `[auth.email.template.NAME]` subject and HTML file (absolute path), as `supabase start` reads them. */
      templates: Record<string, { subject?: string; contentPath?: string }>;
      /** `[auth.email.smtp]`: a real SMTP server (hosted projects); absent → the local mail catcher. */
      smtp: SmtpSettings | null;
    };
  };
  /** `[local_smtp]` (formerly `[inbucket]`): the mail catcher `supabase start` runs for local e-mail. */
  localSmtp: { enabled: boolean; port: number; smtpPort: number; adminEmail: string; senderName: string };
  storage: {
    fileSizeLimit: number;
    imageTransformationEnabled: boolean;
    /** [storage.buckets.NAME] objects_path: local folders whose files seed a bucket (absolute paths). */
    seedObjects: Array<{ bucket: string; objectsPath: string }>;
  };
  functions: Record<string, { verifyJwt: boolean }>;
}

export interface SmtpSettings {
  host: string;
  port: number;
  user: string;
  pass: string;
  adminEmail: string;
  senderName: string;
}

type Table = Record<string, unknown>;

/** Go durations as config.toml writes them ("1s", "60s", "1m"); a bare number is seconds. */
function parseSeconds(value: unknown, fallback: number): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return fallback;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match) return fallback;
  const factor = { ms: 0.001, s: 1, m: 60, h: 3600 }[match[2] as 'ms' | 's' | 'm' | 'h'] ?? 1;
  return Number(match[1]) * factor;
}

/** `env(NAME)` values, as the CLI resolves them in config.toml. */
const fromEnv = (value: unknown): string => {
  const text = typeof value === 'string' ? value : '';
  const match = /^env\((\w+)\)$/.exec(text);
  return match ? (process.env[match[1]!] ?? '') : text;
};
const table = (value: unknown): Table => (value && typeof value === 'object' ? (value as Table) : {});

/** "50MiB", "1GB", 1000 → bytes, as the CLI parses sizes. */
export function parseSize(value: unknown, fallback: number): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return fallback;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?i?B)?\s*$/i.exec(value);
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

export function loadProjectConfig(supabaseDir: string): ProjectConfig {
  const file = path.join(supabaseDir, 'config.toml');
  const raw = existsSync(file) ? (parse(readFileSync(file, 'utf8')) as Table) : {};
  const api = table(raw.api);
  const db = table(raw.db);
  const auth = table(raw.auth);
  const authEmail = table(auth.email);
  const storage = table(raw.storage);
  const smtp = table(authEmail.smtp);
  const localSmtp = table(raw.local_smtp ?? raw.inbucket);
  const functions = table(raw.functions);
  return {
    projectId: String(raw.project_id ?? 'local'),
    db: { majorVersion: Number(db.major_version ?? 17) },
    api: {
      schemas: (api.schemas as string[] | undefined) ?? ['public', 'graphql_public'],
      extraSearchPath: (api.extra_search_path as string[] | undefined) ?? ['public', 'extensions'],
      maxRows: Number(api.max_rows ?? 1000),
    },
    auth: {
      siteUrl: String(auth.site_url ?? 'http://127.0.0.1:3000'),
      jwtExpiry: Number(auth.jwt_expiry ?? 3600),
      refreshTokenRotation: auth.enable_refresh_token_rotation !== false,
      refreshTokenReuseInterval: Number(auth.refresh_token_reuse_interval ?? 10),
      enableSignup: auth.enable_signup !== false && authEmail.enable_signup !== false,
      minimumPasswordLength: Number(auth.minimum_password_length ?? 6),
      rateLimit: {
        tokenRefresh: Number(table(auth.rate_limit).token_refresh ?? 150),
        signInSignUps: Number(table(auth.rate_limit).sign_in_sign_ups ?? 30),
        tokenVerifications: Number(table(auth.rate_limit).token_verifications ?? 30),
      },
      additionalRedirectUrls: (auth.additional_redirect_urls as string[] | undefined) ?? [],
      email: {
        otpLength: Number(authEmail.otp_length ?? 6),
        otpExpiry: Number(authEmail.otp_expiry ?? 3600),
        maxFrequencySeconds: parseSeconds(authEmail.max_frequency, 1),
        securePasswordChange: authEmail.secure_password_change === true,
        templates: Object.fromEntries(
          Object.entries(table(authEmail.template)).map(([name, value]) => {
            const template = table(value);
            return [
              name,
              {
                subject: typeof template.subject === 'string' ? template.subject : undefined,
                contentPath:
                  typeof template.content_path === 'string'
                    ? path.resolve(path.dirname(supabaseDir), template.content_path)
                    : undefined,
              },
            ];
          }),
        ),
        smtp:
          smtp.enabled === true
            ? {
                host: fromEnv(smtp.host),
                port: Number(smtp.port ?? 587),
                user: fromEnv(smtp.user),
                pass: fromEnv(smtp.pass),
                adminEmail: fromEnv(smtp.admin_email),
                senderName: fromEnv(smtp.sender_name),
              }
            : null,
      },
    },
    localSmtp: {
      enabled: localSmtp.enabled !== false,
      port: Number(localSmtp.port ?? 54324),
      smtpPort: Number(localSmtp.smtp_port ?? 54325),
      adminEmail: String(localSmtp.admin_email ?? 'admin@email.com'),
      senderName: String(localSmtp.sender_name ?? 'Admin'),
    },
    storage: {
      fileSizeLimit: parseSize(storage.file_size_limit, 50 * 1024 * 1024),
      imageTransformationEnabled: table(storage.image_transformation).enabled === true,
      seedObjects: Object.entries(table(storage.buckets)).flatMap(([bucket, value]) => {
        const objectsPath = table(value).objects_path;
        return typeof objectsPath === 'string' ? [{ bucket, objectsPath: path.resolve(supabaseDir, objectsPath) }] : [];
      }),
    },
    functions: Object.fromEntries(
      Object.entries(functions).map(([name, value]) => [name, { verifyJwt: table(value).verify_jwt !== false }]),
    ),
  };
}
