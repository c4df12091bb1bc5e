import type { IncomingMessage } from 'node:http';
import type { AuthDeps } from './context.ts';
import { DUMMY_HASH, passwordMatches } from './passwords.ts';
import { AuthError, optionalString } from './http.ts';
import { findUserByEmail, findUserById, findUserByPhone, usersJson } from './users.ts';
import { insertRefreshToken, sessionJson, type SessionRow } from './sessions.ts';

const invalidCredentials = () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials');

/** `POST /token?grant_type=password`; an unknown e-mail costs the same bcrypt time as a wrong password. */
export async function passwordGrant(deps: AuthDeps, req: IncomingMessage, body: Record<string, unknown>) {
  const pool = deps.ctx.adminPool;
  const email = optionalString(body.email);
  const phone = optionalString(body.phone);
  const password = typeof body.password === 'string' ? body.password : '';
  if (!email && !phone) throw new AuthError(400, 'validation_failed', 'missing email or phone');
  const user = email
    ? await findUserByEmail(pool, email, 'Database error querying schema')
    : await findUserByPhone(pool, phone!, 'Database error querying schema');
  const hash = user?.encrypted_password || DUMMY_HASH;
  const matches = await passwordMatches(password, hash);
  if (!user || !user.encrypted_password || !password || !matches) throw invalidCredentials();
  if (user.is_banned) throw new AuthError(400, 'user_banned', 'User is banned');
  if (email && !user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
  if (phone && !user.phone_confirmed_at) throw new AuthError(400, 'phone_not_confirmed', 'Phone not confirmed');
  return deps.withTransaction((db) => deps.issueSession(db, user, req, 'password'));
}

/** `POST /token?grant_type=refresh_token` with rotation and GoTrue's reuse interval. */
export async function refreshGrant(deps: AuthDeps, body: Record<string, unknown>) {
  const { config, tokens } = deps;
  const presented = optionalString(body.refresh_token);
  if (!presented) throw new AuthError(400, 'validation_failed', 'Refresh token is not valid');
  return deps.withTransaction(async (db) => {
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
    // The session's aal and amr come from its AMR claims, so a refresh keeps aal2 once reached.
    return sessionJson(db, user, json!, session, nextToken, tokens);
  });
}
