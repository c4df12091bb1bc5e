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
    /** `signing_keys_path` (absolute): asymmetric JWKs GoTrue signs user tokens with; null → HS256 only. */
    signingKeysPath: string | null;
    refreshTokenRotation: boolean;
    refreshTokenReuseInterval: number;
    enableSignup: boolean;
    /** `enable_anonymous_sign_ins`: POST /signup with neither e-mail nor phone makes an anonymous user. */
    enableAnonymousSignIns: boolean;
    minimumPasswordLength: number;
    /**
     * `[auth.rate_limit]`: requests per 5 minutes per address, as GoTrue applies them; `emailSentPerHour` is
     * what the CLI hands GoTrue as GOTRUE_RATE_LIMIT_EMAIL_SENT (`email_sent` with SMTP on, else 360000).
     */
    rateLimit: {
      tokenRefresh: number;
      signInSignUps: number;
      tokenVerifications: number;
      emailSentPerHour: number;
      /** `anonymous_users`: anonymous sign-ins per hour per address. */
      anonymousUsers: number;
    };
    /** `[auth.mfa.web_authn]`: WebAuthn second factors (GoTrue's MFA_WEB_AUTHN_*_ENABLED), off by default. */
    webAuthnMfa: { enrollEnabled: boolean; verifyEnabled: boolean };
    /** `[auth.webauthn]`: the relying party GoTrue checks attestations and assertions against. */
    webAuthn: { rpId: string | null; rpDisplayName: string; rpOrigins: string[] };
    /** `[auth.oauth_server] enabled`: the OAuth 2.1 server (its admin API /admin/oauth/clients). */
    oauthServer: { enabled: boolean };
    /** `additional_redirect_urls`: where e-mail links may send the browser besides site_url (globs allowed). */
    additionalRedirectUrls: string[];
    /** `[auth.email]`: one-time codes and how often one address may be mailed. */
    email: {
      otpLength: number;
      otpExpiry: number;
      maxFrequencySeconds: number;
      securePasswordChange: boolean;
      /**
       * `update_password_require_current_password`: PUT /user sets a new password only with the right
       * `current_password`, except in a session opened from an e-mailed link or code (GoTrue's
       * Security.UpdatePasswordRequireCurrentPassword; on hosted projects, the Auth setting of that name).
       */
      requireCurrentPassword: boolean;
      /** `enable_confirmations`: GoTrue's !MAILER_AUTOCONFIRM; the project-wide e-mail limit applies only then. */
      enableConfirmations: boolean;
      /** `double_confirm_changes`: an e-mail change is confirmed from both addresses (secure e-mail change). */
      doubleConfirmChanges: boolean;
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

const SIZE = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?i?B)?\s*$/i;

/** Go durations as config.toml writes them ("1s", "60s", "1m"); a bare number is seconds. */
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
const toSeconds = (value: number | string) => {
  if (typeof value === 'number') return value;
  const match = DURATION.exec(value.trim())!;
  return Number(match[1]) * ({ ms: 0.001, s: 1, m: 60, h: 3600 }[match[2] as 'ms' | 's' | 'm' | 'h'] ?? 1);
};

/** `env(NAME)` values, as the CLI resolves them in config.toml. */
const fromEnv = (text: string): string => {
  const match = /^env\((\w+)\)$/.exec(text);
  return match ? (process.env[match[1]!] ?? '') : text;
};

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
    signing_keys_path: z.string().default(''),
    enable_refresh_token_rotation: z.boolean().default(true),
    refresh_token_reuse_interval: count.default(10),
    enable_signup: z.boolean().default(true),
    enable_anonymous_sign_ins: z.boolean().default(false),
    minimum_password_length: count.default(6),
    rate_limit: section({
      token_refresh: count.default(150),
      sign_in_sign_ups: count.default(30),
      token_verifications: count.default(30),
      email_sent: count.default(2),
      anonymous_users: count.default(30),
    }),
    additional_redirect_urls: z.array(z.string()).default([]),
    mfa: section({
      web_authn: section({ enroll_enabled: z.boolean().default(false), verify_enabled: z.boolean().default(false) }),
    }),
    webauthn: section({
      rp_id: z.string().default(''),
      rp_display_name: z.string().default('Supabase'),
      rp_origins: z.array(z.string()).default([]),
    }),
    oauth_server: section({ enabled: z.boolean().default(false) }),
    email: section({
      enable_signup: z.boolean().default(true),
      otp_length: count.default(6),
      otp_expiry: count.default(3600),
      max_frequency: z
        .union([z.number().nonnegative(), z.string().regex(DURATION, 'must be a duration such as "1s" or "1m"')])
        .default('1s'),
      secure_password_change: z.boolean().default(false),
      update_password_require_current_password: z.boolean().default(false),
      enable_confirmations: z.boolean().default(false),
      double_confirm_changes: z.boolean().default(true),
      template: z
        .record(z.string(), z.object({ subject: z.string().optional(), content_path: z.string().optional() }))
        .default({}),
      smtp: section({
        enabled: z.boolean().default(false),
        host: z.string().default(''),
        port: z.number().int().positive().default(587),
        user: z.string().default(''),
        pass: z.string().default(''),
        admin_email: z.string().default(''),
        sender_name: z.string().default(''),
      }),
    }),
  }),
  // `[local_smtp]` (formerly `[inbucket]`, still read): the local mail catcher.
  local_smtp: section({
    enabled: z.boolean().default(true),
    port: z.number().int().positive().default(54324),
    smtp_port: z.number().int().positive().default(54325),
    admin_email: z.string().default('admin@email.com'),
    sender_name: z.string().default('Admin'),
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
  const table = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const result = configSchema.safeParse(
    table.local_smtp === undefined && table.inbucket !== undefined ? { ...table, local_smtp: table.inbucket } : raw,
  );
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`${file}: ${problems.join('; ')}`);
  }
  const { project_id, db, api, auth, storage, functions, local_smtp: localSmtp } = result.data;
  const { smtp } = auth.email;
  return {
    projectId: project_id,
    db: { majorVersion: db.major_version },
    api: { schemas: api.schemas, extraSearchPath: api.extra_search_path, maxRows: api.max_rows },
    auth: {
      siteUrl: auth.site_url,
      jwtExpiry: auth.jwt_expiry,
      // Relative to supabase/, as the CLI resolves it.
      signingKeysPath: auth.signing_keys_path ? path.resolve(supabaseDir, auth.signing_keys_path) : null,
      refreshTokenRotation: auth.enable_refresh_token_rotation,
      refreshTokenReuseInterval: auth.refresh_token_reuse_interval,
      enableSignup: auth.enable_signup && auth.email.enable_signup,
      enableAnonymousSignIns: auth.enable_anonymous_sign_ins,
      minimumPasswordLength: auth.minimum_password_length,
      rateLimit: {
        tokenRefresh: auth.rate_limit.token_refresh,
        signInSignUps: auth.rate_limit.sign_in_sign_ups,
        tokenVerifications: auth.rate_limit.token_verifications,
        emailSentPerHour: smtp.enabled ? auth.rate_limit.email_sent : 360_000,
        anonymousUsers: auth.rate_limit.anonymous_users,
      },
      additionalRedirectUrls: auth.additional_redirect_urls,
      webAuthnMfa: {
        enrollEnabled: auth.mfa.web_authn.enroll_enabled,
        verifyEnabled: auth.mfa.web_authn.verify_enabled,
      },
      webAuthn: {
        rpId: auth.webauthn.rp_id || null,
        rpDisplayName: auth.webauthn.rp_display_name,
        rpOrigins: auth.webauthn.rp_origins,
      },
      oauthServer: { enabled: auth.oauth_server.enabled },
      email: {
        otpLength: auth.email.otp_length,
        otpExpiry: auth.email.otp_expiry,
        maxFrequencySeconds: toSeconds(auth.email.max_frequency),
        securePasswordChange: auth.email.secure_password_change,
        requireCurrentPassword: auth.email.update_password_require_current_password,
        enableConfirmations: auth.email.enable_confirmations,
        doubleConfirmChanges: auth.email.double_confirm_changes,
        templates: Object.fromEntries(
          Object.entries(auth.email.template).map(([name, { subject, content_path }]) => [
            name,
            { subject, contentPath: content_path ? path.resolve(path.dirname(supabaseDir), content_path) : undefined },
          ]),
        ),
        smtp: smtp.enabled
          ? {
              host: fromEnv(smtp.host),
              port: smtp.port,
              user: fromEnv(smtp.user),
              pass: fromEnv(smtp.pass),
              adminEmail: fromEnv(smtp.admin_email),
              senderName: fromEnv(smtp.sender_name),
            }
          : null,
      },
    },
    localSmtp: {
      enabled: localSmtp.enabled,
      port: localSmtp.port,
      smtpPort: localSmtp.smtp_port,
      adminEmail: localSmtp.admin_email,
      senderName: localSmtp.sender_name,
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
