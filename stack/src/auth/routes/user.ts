import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, optionalString, readJsonBody } from '../http.ts';
import { usersJson } from '../users.ts';
import { updateUserFromBody } from '../user-writes.ts';
import { consumeReauthenticationNonce } from '../one-time-tokens.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

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
    const updated = await updateUserFromBody(deps, user, body, {
      admin: false,
      beforeWrite: needsNonce ? (db) => consumeReauthenticationNonce(deps, db, user, nonce!) : undefined,
    });
    return jsonResponse(200, updated);
  });
}
