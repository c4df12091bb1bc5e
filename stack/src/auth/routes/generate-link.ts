import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';
import { isRedirectUrlValid, referrerOf } from '../redirects.ts';
import { findUserByEmail, userJsonById } from '../users.ts';
import { actionLink, issueEmailToken, type EmailTokenType } from '../one-time-tokens.ts';
import { issueEmailChangeToken } from '../email-change.ts';
import { invitee, requireEmail } from './invite.ts';
import { createUserFromBody } from '../user-writes.ts';

/**
 * `POST /admin/generate_link` (auth.admin.generateLink): the same token a mail would carry, returned instead of
 * mailed, with the user: `{...user, action_link, email_otp, hashed_token, verification_type, redirect_to}`.
 */
export function generateLinkRoutes(app: AuthApp, deps: AuthDeps) {
  app.post('/admin/generate_link', async (c) => {
    const body = await readJsonBody(c.req.raw);
    const type = typeof body.type === 'string' ? body.type : '';
    const email = await requireEmail(body.email);
    const asked = typeof body.redirect_to === 'string' ? body.redirect_to : '';
    const referrer = isRedirectUrlValid(deps, asked) ? asked : referrerOf(deps, c.req.raw);
    let user = await findUserByEmail(deps.ctx.adminPool, email);
    if (!['magiclink', 'recovery', 'invite', 'signup', 'email_change_current', 'email_change_new'].includes(type)) {
      throw new AuthError(400, 'validation_failed', `Invalid email action link type requested: ${type}`);
    }
    if (!user && (type === 'recovery' || type.startsWith('email_change'))) {
      throw new AuthError(404, 'user_not_found', 'User with this email not found');
    }
    if (type === 'email_change_current' || type === 'email_change_new') {
      const newEmail = await requireEmail(body.new_email);
      const target = user!;
      const { otp, hash, linkToken } = await deps.withTransaction((db) =>
        issueEmailChangeToken(deps, db, target, type, newEmail),
      );
      return jsonResponse(200, {
        ...(await userJsonById(deps.ctx.adminPool, target.id)),
        action_link: actionLink(deps, linkToken, 'email_change', referrer),
        email_otp: otp,
        hashed_token: hash,
        verification_type: type,
        redirect_to: referrer,
      });
    }
    // An unknown address asked a magic link gets a sign-up link, as in GoTrue (admins may create users).
    const linkType = (type === 'magiclink' && !user ? 'signup' : type) as EmailTokenType;
    if (linkType === 'signup') {
      if (user?.email_confirmed_at) {
        throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
      }
      user ??= await createUserFromBody(
        deps,
        { email, password: typeof body.password === 'string' ? body.password : undefined, user_metadata: body.data },
        { admin: true },
      );
    }
    if (linkType === 'invite') user = await invitee(deps, email, body.data);
    const target = user!;
    const { otp, hash, link } = await deps.withTransaction((db) =>
      issueEmailToken(deps, db, target, linkType, { referrer, mail: false }),
    );
    return jsonResponse(200, {
      ...(await userJsonById(deps.ctx.adminPool, target.id)),
      action_link: link,
      email_otp: otp,
      hashed_token: hash,
      verification_type: linkType,
      redirect_to: referrer,
    });
  });
}
