import type { IncomingMessage } from 'node:http';
import type { PoolClient } from 'pg';
import type { ServiceContext } from '../service.ts';
import type { ProjectConfig } from '../project-config.ts';
import { bearerToken, isExpiredError, type Claims } from '../jwt.ts';
import { AuthError, clientIp } from './http.ts';
import { findUserById, usersJson, type UserRow } from './users.ts';
import { IntervalLimiter, RateLimiter, rateLimitKey } from './rate-limit.ts';
import { addAmrClaim, createSession, insertRefreshToken, sessionJson, type TokenSettings } from './sessions.ts';
import type { Mailer } from './mail/mailer.ts';
import { withTransaction as inTransaction } from '../http/transaction.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

export type LimitGroup = 'token' | 'signup' | 'otp' | 'verify' | 'mfa' | 'anonymous';

export interface AuthOptions {
  /**
   * GOTRUE_RATE_LIMIT_HEADER: the request header whose first value keys the per-client limits (default
   * X-Forwarded-For, as hosted Supabase); null applies none, as `supabase start` does.
   */
  rateLimitHeader?: string | null;
}

/** Everything a route needs besides its request: the database, config, limits, the caller's identity. */
export interface AuthDeps {
  ctx: ServiceContext;
  config: ProjectConfig['auth'];
  tokens: TokenSettings;
  mailer: Mailer;
  withTransaction<T>(work: (db: PoolClient) => Promise<T>): Promise<T>;
  /** Takes one request from the caller's bucket of `group`; 429 over_request_rate_limit when empty. */
  limit(group: LimitGroup, req: IncomingMessage): void;
  /** Counts one mail against the project's hourly e-mail limit; 429 over_email_send_rate_limit when spent. */
  limitEmail(): void;
  authenticate(req: IncomingMessage): Promise<Claims>;
  authenticatedUser(req: IncomingMessage): Promise<{ claims: Claims; user: UserRow }>;
  requireAdmin(req: IncomingMessage): Promise<Claims>;
  issueSession(db: PoolClient, user: UserRow, req: IncomingMessage, method?: string): Promise<Record<string, unknown>>;
  checkPasswordStrength(password: string): void;
}

export function createAuthDeps(
  ctx: ServiceContext,
  config: ProjectConfig['auth'],
  mailer: Mailer,
  options: AuthOptions,
): AuthDeps {
  // GoTrue's groups (apilimiter): /token; /signup; /otp, /magiclink, /recover and /resend share
  // RATE_LIMIT_OTP, which the CLI's `sign_in_sign_ups` sets; /verify has its own.
  const limiters: Record<LimitGroup, RateLimiter> = {
    token: new RateLimiter(config.rateLimit.tokenRefresh),
    signup: new RateLimiter(config.rateLimit.signInSignUps),
    otp: new RateLimiter(config.rateLimit.signInSignUps),
    verify: new RateLimiter(config.rateLimit.tokenVerifications),
    // MFA.RateLimitChallengeAndVerify: 15 per minute per address in GoTrue's defaults.
    mfa: new RateLimiter(75),
    // RATE_LIMIT_ANONYMOUS_USERS: per hour, with a burst of the whole hour's allowance.
    anonymous: new RateLimiter(config.rateLimit.anonymousUsers, 3600, config.rateLimit.anonymousUsers),
  };
  const rateLimitHeader = options.rateLimitHeader === undefined ? 'X-Forwarded-For' : options.rateLimitHeader;
  const emailLimiter = new IntervalLimiter(config.rateLimit.emailSentPerHour);
  const tokens: TokenSettings = {
    keys: ctx.jwtKeys,
    jwtExpiry: config.jwtExpiry,
    issuer: `${ctx.apiUrl}/auth/v1`,
  };

  const withTransaction = <T>(work: (db: PoolClient) => Promise<T>): Promise<T> => inTransaction(ctx.adminPool, work);

  /** Verifies the bearer token of a user request, as GoTrue's requireAuthentication does. */
  const authenticate = async (req: IncomingMessage): Promise<Claims> => {
    const token = bearerToken(req.headers.authorization);
    if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    try {
      return await ctx.jwtKeys.verify(token);
    } catch (error) {
      const reason = isExpiredError(error) ? 'token has invalid claims: token is expired' : (error as Error).message;
      throw new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
    }
  };

  return {
    ctx,
    config,
    tokens,
    mailer,
    withTransaction,
    limit(group, req) {
      const key = rateLimitKey(req, rateLimitHeader);
      if (key !== null && !limiters[group].take(key)) {
        throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');
      }
    },
    limitEmail() {
      // GoTrue refuses every mail when the limit is 0, and otherwise counts mails only while confirmations are
      // on (its autoconfirm mode skips the limiter).
      const counted = config.rateLimit.emailSentPerHour === 0 || config.email.enableConfirmations;
      if (counted && !emailLimiter.take()) {
        throw new AuthError(429, 'over_email_send_rate_limit', 'email rate limit exceeded');
      }
    },
    authenticate,
    async authenticatedUser(req) {
      const claims = await authenticate(req);
      if (!claims.sub) throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim');
      if (typeof claims.session_id === 'string') {
        const session = await ctx.adminPool.query('select 1 from auth.sessions where id = $1', [claims.session_id]);
        if (session.rowCount === 0) {
          throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
        }
      }
      const user = UUID.test(claims.sub) ? await findUserById(ctx.adminPool, claims.sub) : null;
      if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
      return { claims, user };
    },
    async requireAdmin(req) {
      const claims = await authenticate(req);
      if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) {
        throw new AuthError(403, 'not_admin', 'User not allowed');
      }
      return claims;
    },
    async issueSession(db, user, req, method = 'password') {
      const session = await createSession(db, user.id, {
        userAgent: req.headers['user-agent'] ?? null,
        ip: clientIp(req),
      });
      await addAmrClaim(db, session.id, method);
      const refreshToken = await insertRefreshToken(db, session, null);
      await db.query('update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1', [user.id]);
      await db.query('update auth.identities set last_sign_in_at = now() where user_id = $1', [user.id]);
      const fresh = (await findUserById(db, user.id))!;
      const [json] = await usersJson(db, [fresh]);
      return sessionJson(db, fresh, json!, session, refreshToken, tokens);
    },
    checkPasswordStrength(password) {
      if (password.length < config.minimumPasswordLength) {
        throw new AuthError(
          422,
          'weak_password',
          `Password should be at least ${config.minimumPasswordLength} characters.`,
          { weak_password: { reasons: ['length'] } },
        );
      }
    },
  };
}
