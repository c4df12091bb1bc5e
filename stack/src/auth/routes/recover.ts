import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';
import { validateEmail } from '../disabled-features.ts';
import { referrerOf } from '../redirects.ts';
import { findUserByEmail } from '../users.ts';
import { issueEmailToken } from '../one-time-tokens.ts';

/**
 * `POST /recover` (resetPasswordForEmail): mails a recovery link. An unknown address gets the same `{}`, so
 * the endpoint does not tell who has an account.
 */
export function recoverRoutes(app: AuthApp, deps: AuthDeps) {
  app.post('/recover', async (c) => {
    deps.limit('otp', c.env.incoming);
    const body = await readJsonBody(c.req.raw);
    const email = typeof body.email === 'string' ? body.email : '';
    if (!email) throw new AuthError(400, 'validation_failed', 'Password recovery requires an email');
    validateEmail(email);
    const user = await findUserByEmail(deps.ctx.adminPool, email.toLowerCase());
    if (!user) return jsonResponse(200, {});
    const referrer = referrerOf(deps, c.req.raw);
    await deps.withTransaction((db) => issueEmailToken(deps, db, user, 'recovery', { referrer, mail: true }));
    return jsonResponse(200, {});
  });
}
