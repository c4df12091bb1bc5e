import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, optionalString, readJsonBody } from '../http.ts';
import { usersJson } from '../users.ts';
import { updateUserFromBody } from '../user-writes.ts';
import { consumeReauthenticationNonce } from '../one-time-tokens.ts';
import { passwordMatches } from '../passwords.ts';
import type { PoolClient } from 'pg';
import type { UserRow } from '../users.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Ways in that prove the person reads the account's mail (GoTrue's AuthenticationMethod.IsRecovery). */
const RECOVERY_METHODS = ['otp', 'magiclink', 'recovery'];

/**
 * [auth.email] update_password_require_current_password: a new password needs the current one, unless the
 * session was opened from an e-mailed link or code (a forgotten password is reset that way). Both refusals
 * are 400 with the same message, told apart by their code, as GoTrue answers.
 */
async function checkCurrentPassword(db: PoolClient, user: UserRow, sessionId: string | null, given: unknown) {
  const { rows } = await db.query(
    'select 1 from auth.mfa_amr_claims where session_id = $1 and authentication_method = any($2)',
    [sessionId, RECOVERY_METHODS],
  );
  if (rows.length > 0) return;
  const message = 'Current password required when setting new password.';
  if (typeof given !== 'string' || given === '') throw new AuthError(400, 'current_password_required', message);
  if (!(await passwordMatches(given, user.encrypted_password!))) {
    throw new AuthError(400, 'current_password_invalid', message);
  }
}

/** `GET /user` and `PUT /user` (updateUser), with GoTrue's nonce rule for password changes. */
export function userRoutes(app: AuthApp, deps: AuthDeps) {
  app.get('/user', async (c) => {
    const { user } = await deps.authenticatedUser(c.env.incoming);
    const [json] = await usersJson(deps.ctx.adminPool, [user]);
    return jsonResponse(200, json);
  });

  app.put('/user', async (c) => {
    const { claims, user } = await deps.authenticatedUser(c.env.incoming);
    const body = await readJsonBody(c.req.raw);
    const nonce = optionalString(body.nonce);
    let needsNonce = false;
    if (typeof body.password === 'string' && deps.config.email.securePasswordChange) {
      // [auth.email] secure_password_change: a session older than a day must prove it is still its owner
      // with the code GET /reauthenticate mailed (GoTrue's UpdatePasswordRequireReauthentication).
      const { rows } = await deps.ctx.adminPool.query<{ created_at: Date }>(
        'select created_at from auth.sessions where id = $1',
        [typeof claims.session_id === 'string' ? claims.session_id : null],
      );
      const session = rows[0];
      needsNonce = !session || Date.now() > session.created_at.getTime() + DAY_MS;
      if (needsNonce && !nonce) {
        throw new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication');
      }
    }
    const sessionId = typeof claims.session_id === 'string' ? claims.session_id : null;
    const needsCurrentPassword =
      deps.config.email.requireCurrentPassword && !!optionalString(body.password) && !!user.encrypted_password;
    const updated = await updateUserFromBody(deps, user, body, {
      admin: false,
      beforeWrite:
        needsNonce || needsCurrentPassword
          ? async (db) => {
              if (needsNonce) await consumeReauthenticationNonce(deps, db, user, nonce!);
              if (needsCurrentPassword) await checkCurrentPassword(db, user, sessionId, body.current_password);
            }
          : undefined,
    });
    return jsonResponse(200, updated);
  });
}
