import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';
import { validateEmail } from '../disabled-features.ts';
import { referrerOf } from '../redirects.ts';
import { randomBytes } from 'node:crypto';
import { findUserByEmail, findUserById, type UserRow } from '../users.ts';
import { createUserFromBody } from '../user-writes.ts';
import { issueEmailToken } from '../one-time-tokens.ts';

/**
 * `POST /otp` (signInWithOtp): a magic link + code. An unknown (or unconfirmed) address is signed up first with
 * a random password, as GoTrue's MagicLink does when sign-ups are on (auto-confirmed: no confirmation mail
 * here); otherwise it is refused as GoTrue refuses it (`create_user: false` → otp_disabled, else signup_disabled).
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
    let user = await findUserByEmail(deps.ctx.adminPool, email.toLowerCase());
    if (!user && body.create_user === false) {
      throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');
    }
    if (!user || !user.email_confirmed_at) {
      // MagicLink → Signup with a generated password (auto-confirmed), then the magic link.
      if (!deps.config.enableSignup) {
        throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
      }
      user = user
        ? await confirmEmail(deps, user)
        : await createUserFromBody(
            deps,
            { email, password: randomBytes(33).toString('base64url'), data: body.data },
            { admin: false },
          );
    }
    const signedUp = user;
    const referrer = referrerOf(deps, c.req.raw);
    await deps.withTransaction((db) => issueEmailToken(deps, db, signedUp, 'magiclink', { referrer, mail: true }));
    return jsonResponse(200, {});
  });
}

/** Signup for an address that exists unconfirmed: with auto-confirm, GoTrue confirms it. */
async function confirmEmail(deps: AuthDeps, user: UserRow): Promise<UserRow> {
  await deps.ctx.adminPool.query(
    'update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = $1',
    [user.id],
  );
  return (await findUserById(deps.ctx.adminPool, user.id))!;
}
