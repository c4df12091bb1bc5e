import type { IncomingMessage, ServerResponse } from 'node:http';
import bcrypt from 'bcryptjs';
import type { PoolClient } from 'pg';
import type { MountedService, ServiceContext } from '../service.ts';
import type { ProjectConfig } from '../project-config.ts';
import { bearerToken, isExpiredError, verifyJwt, type Claims } from '../jwt.ts';
import {
  AuthError,
  clientIp,
  gatewaySeenAddress,
  isObject,
  optionalString,
  readJsonBody,
  sendError,
  sendJson,
} from './http.ts';
import {
  findUserByEmail,
  findUserById,
  findUserByPhone,
  insertUser,
  listUsers,
  userJsonById,
  usersJson,
  type UserRow,
} from './users.ts';
import * as disabled from './disabled-features.ts';
import { RateLimiter } from './rate-limit.ts';
import { createSession, insertRefreshToken, sessionJson, type SessionRow, type TokenSettings } from './sessions.ts';

/**
 * The GoTrue API that supabase-js uses (LOCAL_STACK_CONTRACT.md section 2): password and refresh-token
 * grants with rotation, the user endpoints, logout scopes, settings, and the admin users API. Users,
 * identities, sessions and refresh tokens are real rows in the `auth` schema, so triggers and foreign keys
 * on auth.users behave as on Supabase.
 */

const BCRYPT_COST = 10;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);
// Compared against when the e-mail is unknown, so a miss costs the same time as a wrong password.
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_COST);

const invalidCredentials = () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials');

async function withTransaction<T>(ctx: ServiceContext, work: (db: PoolClient) => Promise<T>): Promise<T> {
  const db = await ctx.adminPool.connect();
  try {
    await db.query('begin');
    const result = await work(db);
    await db.query('commit');
    return result;
  } catch (error) {
    await db.query('rollback').catch(() => {});
    throw error;
  } finally {
    db.release();
  }
}

export async function createAuthService(
  ctx: ServiceContext,
  config: ProjectConfig['auth'],
  options: { rateLimits?: boolean } = {},
): Promise<MountedService> {
  const limiters = {
    token: new RateLimiter(config.rateLimit.tokenRefresh),
    signup: new RateLimiter(config.rateLimit.signInSignUps),
    verify: new RateLimiter(config.rateLimit.tokenVerifications),
  };
  const limit = (group: keyof typeof limiters, req: IncomingMessage) => {
    if (options.rateLimits === false) return;
    if (!limiters[group].take(gatewaySeenAddress(req))) {
      throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');
    }
  };
  const tokens: TokenSettings = {
    jwtSecret: ctx.jwtSecret,
    jwtExpiry: config.jwtExpiry,
    issuer: `${ctx.apiUrl}/auth/v1`,
  };

  const checkPasswordStrength = (password: string) => {
    if (password.length < config.minimumPasswordLength) {
      throw new AuthError(
        422,
        'weak_password',
        `Password should be at least ${config.minimumPasswordLength} characters.`,
        { weak_password: { reasons: ['length'] } },
      );
    }
  };

  /** Verifies the bearer token of a user request, as GoTrue's requireAuthentication does. */
  const authenticate = async (req: IncomingMessage): Promise<Claims> => {
    const token = bearerToken(req.headers.authorization);
    if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    try {
      return await verifyJwt(token, ctx.jwtSecret);
    } catch (error) {
      const reason = isExpiredError(error) ? 'token has invalid claims: token is expired' : (error as Error).message;
      throw new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
    }
  };

  const authenticatedUser = async (req: IncomingMessage): Promise<{ claims: Claims; user: UserRow }> => {
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
  };

  const requireAdmin = async (req: IncomingMessage) => {
    const claims = await authenticate(req);
    if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) {
      throw new AuthError(403, 'not_admin', 'User not allowed');
    }
  };

  const issueSession = async (db: PoolClient, user: UserRow, req: IncomingMessage) => {
    const session = await createSession(db, user.id, {
      userAgent: (req.headers['user-agent'] as string | undefined) ?? null,
      ip: clientIp(req),
    });
    const refreshToken = await insertRefreshToken(db, session, null);
    await db.query('update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1', [user.id]);
    await db.query('update auth.identities set last_sign_in_at = now() where user_id = $1', [user.id]);
    const fresh = (await findUserById(db, user.id))!;
    const [json] = await usersJson(db, [fresh]);
    return sessionJson(fresh, json!, session, refreshToken, tokens);
  };

  const passwordGrant = async (req: IncomingMessage, body: Record<string, unknown>) => {
    const email = optionalString(body.email);
    const phone = optionalString(body.phone);
    const password = typeof body.password === 'string' ? body.password : '';
    if (!email && !phone) throw new AuthError(400, 'validation_failed', 'missing email or phone');
    const user = email ? await findUserByEmail(ctx.adminPool, email) : await findUserByPhone(ctx.adminPool, phone!);
    const hash = user?.encrypted_password || DUMMY_HASH;
    const matches = await bcrypt.compare(password, hash);
    if (!user || !user.encrypted_password || !password || !matches) throw invalidCredentials();
    if (user.is_banned) throw new AuthError(400, 'user_banned', 'User is banned');
    if (email && !user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
    if (phone && !user.phone_confirmed_at) throw new AuthError(400, 'phone_not_confirmed', 'Phone not confirmed');
    return withTransaction(ctx, (db) => issueSession(db, user, req));
  };

  const refreshGrant = async (body: Record<string, unknown>) => {
    const presented = optionalString(body.refresh_token);
    if (!presented) throw new AuthError(400, 'validation_failed', 'Refresh token is not valid');
    return withTransaction(ctx, async (db) => {
      const found = await db.query<{
        id: string;
        token: string;
        revoked: boolean;
        session_id: string | null;
        revoked_for_seconds: number;
      }>(
        `select id, token, revoked, session_id, extract(epoch from now() - updated_at)::float8 as revoked_for_seconds
         from auth.refresh_tokens where token = $1 for update`,
        [presented],
      );
      const token = found.rows[0];
      if (!token) throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      const sessionResult = token.session_id
        ? await db.query<SessionRow>(
            'select id, user_id, created_at, not_after from auth.sessions where id = $1 for update',
            [token.session_id],
          )
        : null;
      const session = sessionResult?.rows[0];
      if (!session) throw new AuthError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found');
      if (session.not_after && session.not_after.getTime() < Date.now()) {
        throw new AuthError(400, 'session_expired', 'Invalid Refresh Token: Session Expired');
      }
      const user = await findUserById(db, session.user_id);
      if (!user) throw new AuthError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found');
      if (user.is_banned) throw new AuthError(400, 'user_banned', 'Invalid Refresh Token: User Banned');

      let nextToken: string;
      if (token.revoked) {
        // A revoked token may be replayed within the reuse interval (two tabs refreshing at once): answer with
        // the token that replaced it. Later than that, it is a stolen token: revoke the whole session.
        const child = await db.query<{ token: string }>(
          'select token from auth.refresh_tokens where parent = $1 and revoked = false order by id desc limit 1',
          [token.token],
        );
        if (
          !config.refreshTokenRotation ||
          token.revoked_for_seconds > config.refreshTokenReuseInterval ||
          !child.rows[0]
        ) {
          await db.query(
            'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false',
            [session.id],
          );
          // The revocation must survive the error below, so commit it before throwing.
          await db.query('commit');
          await db.query('begin');
          throw new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
        }
        nextToken = child.rows[0].token;
      } else {
        await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [token.id]);
        nextToken = await insertRefreshToken(db, session, token.token);
      }
      await db.query(
        `update auth.sessions set updated_at = now(), refreshed_at = now() at time zone 'UTC' where id = $1`,
        [session.id],
      );
      const [json] = await usersJson(db, [user]);
      return sessionJson(user, json!, session, nextToken, tokens);
    });
  };

  const createUserFromBody = async (body: Record<string, unknown>, options: { admin: boolean }) => {
    const email = optionalString(body.email)?.toLowerCase() ?? null;
    const phone = optionalString(body.phone) ?? null;
    const password = optionalString(body.password);
    const passwordHash = optionalString(body.password_hash);
    if (!email && !phone)
      throw new AuthError(400, 'validation_failed', 'Cannot create a user without either an email or phone');
    if (password && passwordHash) {
      throw new AuthError(400, 'validation_failed', 'Only a password or a password hash should be provided');
    }
    if (email) disabled.validateEmail(email);
    if (passwordHash && !/^\$2[aby]\$\d{2}\$/.test(passwordHash)) {
      throw new AuthError(400, 'validation_failed', 'Invalid password hash format');
    }
    if (!options.admin && !password) throw new AuthError(400, 'validation_failed', 'Signup requires a valid password');
    if (password) checkPasswordStrength(password);
    const id = optionalString(body.id) ?? crypto.randomUUID();
    if (!UUID.test(id)) throw new AuthError(400, 'validation_failed', 'user_id must be an UUID');
    const role = options.admin ? (optionalString(body.role) ?? 'authenticated') : 'authenticated';
    const encryptedPassword = password ? await bcrypt.hash(password, BCRYPT_COST) : (passwordHash ?? null);
    const appMetadata = options.admin && isObject(body.app_metadata) ? body.app_metadata : {};
    const userMetadata = isObject(options.admin ? body.user_metadata : body.data)
      ? ((options.admin ? body.user_metadata : body.data) as Record<string, unknown>)
      : {};
    const bannedUntil = parseBanDuration(body.ban_duration);

    return withTransaction(ctx, async (db) => {
      if (email && (await findUserByEmail(db, email))) {
        throw options.admin
          ? new AuthError(422, 'email_exists', 'A user with this email address has already been registered')
          : new AuthError(422, 'user_already_exists', 'User already registered');
      }
      if (phone && (await findUserByPhone(db, phone))) {
        throw new AuthError(422, 'phone_exists', 'A user with this phone number has already been registered');
      }
      if (await findUserById(db, id)) throw new AuthError(422, 'user_already_exists', 'User already registered');
      await insertUser(db, {
        id,
        email,
        phone,
        encryptedPassword,
        // Without a mailer, sign-ups are auto-confirmed (config enable_confirmations = false).
        emailConfirmed: options.admin ? body.email_confirm === true : true,
        phoneConfirmed: options.admin ? body.phone_confirm === true : !!phone,
        role,
        appMetadata,
        userMetadata,
        bannedUntil,
      });
      return (await findUserById(db, id))!;
    });
  };

  const updateUserFromBody = async (user: UserRow, body: Record<string, unknown>, options: { admin: boolean }) =>
    withTransaction(ctx, async (db) => {
      const password = optionalString(body.password);
      if (password) {
        checkPasswordStrength(password);
        if (!options.admin && user.encrypted_password && (await bcrypt.compare(password, user.encrypted_password))) {
          throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
        }
        await db.query('update auth.users set encrypted_password = $2 where id = $1', [
          user.id,
          await bcrypt.hash(password, BCRYPT_COST),
        ]);
      }
      const email = optionalString(body.email)?.toLowerCase();
      if (email && email !== user.email) {
        disabled.validateEmail(email);
        const other = await findUserByEmail(db, email);
        if (other && other.id !== user.id) {
          throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
        }
        await db.query('update auth.users set email = $2 where id = $1', [user.id, email]);
        await db.query(
          `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text)
           where user_id = $1 and provider = 'email'`,
          [user.id, email],
        );
      }
      const metadataKey = options.admin ? 'user_metadata' : 'data';
      if (isObject(body[metadataKey])) {
        // GoTrue merges metadata; a key set to null is removed.
        await db.query(
          `update auth.users set raw_user_meta_data = jsonb_strip_nulls(coalesce(raw_user_meta_data, '{}') || $2::jsonb)
           where id = $1`,
          [user.id, body[metadataKey]],
        );
      }
      if (options.admin) {
        if (isObject(body.app_metadata)) {
          await db.query(
            `update auth.users set raw_app_meta_data = jsonb_strip_nulls(coalesce(raw_app_meta_data, '{}') || $2::jsonb)
             where id = $1`,
            [user.id, body.app_metadata],
          );
        }
        if (body.email_confirm === true) {
          await db.query(
            'update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1',
            [user.id],
          );
        }
        if (optionalString(body.role))
          await db.query('update auth.users set role = $2 where id = $1', [user.id, body.role]);
        if (body.ban_duration !== undefined) {
          await db.query('update auth.users set banned_until = $2 where id = $1', [
            user.id,
            parseBanDuration(body.ban_duration),
          ]);
        }
      }
      await db.query('update auth.users set updated_at = now() where id = $1', [user.id]);
      return (await userJsonById(db, user.id))!;
    });

  const settings = () => ({
    external: {
      anonymous_users: false,
      apple: false,
      azure: false,
      bitbucket: false,
      discord: false,
      facebook: false,
      figma: false,
      fly: false,
      github: false,
      gitlab: false,
      google: false,
      keycloak: false,
      kakao: false,
      linkedin: false,
      linkedin_oidc: false,
      notion: false,
      spotify: false,
      slack: false,
      slack_oidc: false,
      workos: false,
      twitch: false,
      twitter: false,
      x: false,
      zoom: false,
      email: true,
      phone: false,
    },
    disable_signup: !config.enableSignup,
    mailer_autoconfirm: true,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: false,
  });

  const route = async (req: IncomingMessage, res: ServerResponse, subpath: string) => {
    const url = new URL(subpath, 'http://auth.local');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';

    if (path === '/health' && method === 'GET') {
      return sendJson(res, 200, {
        version: 'mediateca-local',
        name: 'GoTrue',
        description: 'GoTrue is a user registration and authentication API',
      });
    }
    if (path === '/settings' && method === 'GET') return sendJson(res, 200, settings());
    if (path === '/.well-known/jwks.json' && method === 'GET') return sendJson(res, 200, { keys: [] });

    if (path === '/token' && method === 'POST') {
      const body = await readJsonBody(req);
      const grant = url.searchParams.get('grant_type');
      // GoTrue checks the grant type first (an unknown one is a 400, not counted), then the limit.
      if (['password', 'refresh_token', 'id_token', 'pkce'].includes(grant ?? '')) limit('token', req);
      if (grant === 'password') return sendJson(res, 200, await passwordGrant(req, body));
      if (grant === 'refresh_token') return sendJson(res, 200, await refreshGrant(body));
      if (grant === 'id_token') disabled.idTokenGrant(body);
      if (grant === 'web3') disabled.web3Grant();
      throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
    }

    if (path === '/verify' && (method === 'GET' || method === 'POST')) {
      limit('verify', req);
      disabled.verify(method, url, method === 'POST' ? await readJsonBody(req) : {});
    }
    if (path === '/callback' && (method === 'GET' || method === 'POST')) disabled.callback(url);
    if (path === '/authorize' && method === 'GET') disabled.authorize(url);
    if (path === '/sso' || path.startsWith('/sso/')) disabled.samlDisabled();

    if (path === '/signup' && method === 'POST') {
      limit('signup', req);
      const body = await readJsonBody(req);
      if (!optionalString(body.email) && !optionalString(body.phone)) disabled.anonymousSignIn();
      if (!config.enableSignup) throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
      const user = await createUserFromBody(body, { admin: false });
      return sendJson(res, 200, await withTransaction(ctx, (db) => issueSession(db, user, req)));
    }

    if (path === '/user' && method === 'GET') {
      const { user } = await authenticatedUser(req);
      const [json] = await usersJson(ctx.adminPool, [user]);
      return sendJson(res, 200, json);
    }
    if (path === '/user' && method === 'PUT') {
      const { user } = await authenticatedUser(req);
      return sendJson(res, 200, await updateUserFromBody(user, await readJsonBody(req), { admin: false }));
    }

    if (path === '/user/identities' || path.startsWith('/user/identities/')) {
      await authenticatedUser(req);
      disabled.manualLinkingDisabled();
    }

    if (path === '/logout' && method === 'POST') {
      const scope = url.searchParams.get('scope') ?? 'global';
      if (!['global', 'local', 'others'].includes(scope)) {
        throw new AuthError(400, 'validation_failed', `Unsupported logout scope "${scope}"`);
      }
      const claims = await authenticate(req);
      if (claims.sub && UUID.test(claims.sub)) {
        const sessionId = typeof claims.session_id === 'string' ? claims.session_id : null;
        if (scope === 'global' || !sessionId) {
          await ctx.adminPool.query('delete from auth.sessions where user_id = $1', [claims.sub]);
        } else if (scope === 'local') {
          await ctx.adminPool.query('delete from auth.sessions where id = $1', [sessionId]);
        } else {
          await ctx.adminPool.query('delete from auth.sessions where user_id = $1 and id <> $2', [
            claims.sub,
            sessionId,
          ]);
        }
      }
      res.writeHead(204);
      res.end();
      return;
    }

    if (path === '/admin/users' || path.startsWith('/admin/users/')) {
      await requireAdmin(req);
      return adminUsers(req, res, url, path, method);
    }

    throw new AuthError(404, 'not_found', `${method} ${path} is not supported by the local Auth server`);
  };

  const adminUsers = async (req: IncomingMessage, res: ServerResponse, url: URL, path: string, method: string) => {
    if (path === '/admin/users') {
      if (method === 'POST') {
        const user = await createUserFromBody(await readJsonBody(req), { admin: true });
        return sendJson(res, 200, await userJsonById(ctx.adminPool, user.id));
      }
      if (method === 'GET') {
        const page = parsePageParam(url.searchParams.get('page'), 1);
        const perPage = parsePageParam(url.searchParams.get('per_page'), 50);
        const { users, total } = await listUsers(ctx.adminPool, perPage, (page - 1) * perPage);
        const lastPage = Math.max(1, Math.ceil(total / perPage));
        const links = [];
        if (page < lastPage) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
        links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
        return sendJson(
          res,
          200,
          { users: await usersJson(ctx.adminPool, users), aud: 'authenticated' },
          { 'X-Total-Count': String(total), Link: links.join(', ') },
        );
      }
      throw new AuthError(405, 'method_not_allowed', 'Method not allowed');
    }
    const id = path.slice('/admin/users/'.length);
    if (!UUID.test(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
    const user = await findUserById(ctx.adminPool, id);
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
    if (method === 'GET') return sendJson(res, 200, await userJsonById(ctx.adminPool, id));
    if (method === 'PUT')
      return sendJson(res, 200, await updateUserFromBody(user, await readJsonBody(req), { admin: true }));
    if (method === 'DELETE') {
      const body = await readJsonBody(req);
      if (body.should_soft_delete === true) {
        await withTransaction(ctx, async (db) => {
          await db.query('delete from auth.sessions where user_id = $1', [id]);
          await db.query('delete from auth.identities where user_id = $1', [id]);
          await db.query(
            `update auth.users set deleted_at = now(), updated_at = now(), email = null, phone = null,
               encrypted_password = '', raw_user_meta_data = '{}' where id = $1`,
            [id],
          );
        });
      } else {
        await ctx.adminPool.query('delete from auth.users where id = $1', [id]);
      }
      return sendJson(res, 200, {});
    }
    throw new AuthError(405, 'method_not_allowed', 'Method not allowed');
  };

  return {
    async handle(req, res, subpath) {
      try {
        await route(req, res, subpath);
      } catch (error) {
        if (error instanceof AuthError) return sendError(req, res, error);
        ctx.log(`unexpected error: ${(error as Error).stack ?? String(error)}`);
        sendError(
          req,
          res,
          new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'),
        );
      }
    },
    async close() {},
  };
}

function parsePageParam(value: string | null, fallback: number): number {
  if (value === null || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new AuthError(400, 'validation_failed', 'Bad Pagination Parameters');
  return parsed;
}

/** GoTrue's `ban_duration`: a Go duration such as "24h" or "90m", or "none" to lift a ban. */
function parseBanDuration(value: unknown): Date | null {
  if (value === undefined || value === null || value === 'none' || value === '') return null;
  if (typeof value !== 'string') throw new AuthError(400, 'validation_failed', 'ban_duration must be a duration');
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  const matches = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (matches.length === 0 || matches.map((m) => m[0]).join('') !== value) {
    throw new AuthError(400, 'validation_failed', 'invalid format for ban duration');
  }
  for (const match of matches) total += Number(match[1]) * units[match[2]!]!;
  return new Date(Date.now() + total);
}
