import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';
import { validateEmail } from '../disabled-features.ts';
import { referrerOf } from '../redirects.ts';
import { findUserByEmail } from '../users.ts';
import { issueEmailToken } from '../one-time-tokens.ts';

/**
 * `POST /otp` (signInWithOtp): a magic link + code for an existing user. Sign-ups are off, so an unknown
 * address is refused as GoTrue refuses it (`create_user: false` → otp_disabled; otherwise signup_disabled).
 */
export function otpRoutes(app: AuthApp, deps: AuthDeps) {
  app.post('/otp', async (c) => {
    deps.limit('otp', c.env.incoming);
    const body = await readJsonBody(c.req.raw);
    const email = typeof body.email === 'string' ? body.email : '';
    const phone = typeof body.phone === 'string' ? body.phone : '';
    if (email && phone) {
      throw new AuthError(400, 'validation_failed', 'Only an email address or phone number should be provided');
    }
    if (phone) throw new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');
    if (!email) throw new AuthError(400, 'validation_failed', 'One of email or phone must be set');
    validateEmail(email);
    const user = await findUserByEmail(deps.ctx.adminPool, email.toLowerCase());
    if (!user) {
      if (body.create_user === false) {
        throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');
      }
      // MagicLink → Signup with a generated password, which the config refuses.
      if (!deps.config.enableSignup)
        throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
    }
    if (!user || !user.email_confirmed_at) {
      // An unconfirmed user would be sent a confirmation mail by GoTrue's signup; confirmations are off here.
      throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
    }
    const referrer = referrerOf(deps, c.req.raw);
    await deps.withTransaction((db) => issueEmailToken(deps, db, user, 'magiclink', { referrer, mail: true }));
    return jsonResponse(200, {});
  });
}
