import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';
import { validateEmail } from '../disabled-features.ts';
import { referrerOf } from '../redirects.ts';
import { findUserByEmail } from '../users.ts';
import { issueEmailToken } from '../one-time-tokens.ts';

/**
 * `POST /resend` (auth.resend): a new confirmation mail for an unconfirmed address. Already confirmed or
 * unknown addresses get `{}` and no mail, as GoTrue; e-mail changes are not offered here (no pending change).
 */
export function resendRoutes(app: AuthApp, deps: AuthDeps) {
  app.post('/resend', async (c) => {
    deps.limit('otp', c.env.incoming);
    const body = await readJsonBody(c.req.raw);
    const type = typeof body.type === 'string' ? body.type : '';
    const email = typeof body.email === 'string' ? body.email : '';
    const phone = typeof body.phone === 'string' ? body.phone : '';
    if (!['signup', 'email_change', 'sms', 'phone_change'].includes(type)) {
      throw new AuthError(
        400,
        'validation_failed',
        'Missing one of these types: signup, email_change, sms, phone_change',
      );
    }
    if (!email && type === 'signup')
      throw new AuthError(400, 'validation_failed', 'Type provided requires an email address');
    if (!phone && type === 'sms')
      throw new AuthError(400, 'validation_failed', 'Type provided requires a phone number');
    if (email && phone) {
      throw new AuthError(400, 'validation_failed', 'Only an email address or phone number should be provided.');
    }
    if (phone) throw new AuthError(400, 'phone_provider_disabled', 'Phone logins are disabled');
    if (!email) throw new AuthError(400, 'validation_failed', 'Missing email address or phone number');
    validateEmail(email);
    const user = await findUserByEmail(deps.ctx.adminPool, email.toLowerCase());
    // email_change: no pending change is ever stored here (double_confirm_changes mails nothing yet).
    if (!user || type !== 'signup' || user.email_confirmed_at) return jsonResponse(200, {});
    const referrer = referrerOf(deps, c.req.raw);
    await deps.withTransaction((db) => issueEmailToken(deps, db, user, 'signup', { referrer, mail: true }));
    return jsonResponse(200, {});
  });
}
