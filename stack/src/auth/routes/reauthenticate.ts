import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse } from '../http.ts';
import { issueEmailToken } from '../one-time-tokens.ts';

/** `GET /reauthenticate` (auth.reauthenticate): mails a code that `PUT /user` accepts as `nonce`. */
export function reauthenticateRoutes(app: AuthApp, deps: AuthDeps) {
  app.get('/reauthenticate', async (c) => {
    const { user } = await deps.authenticatedUser(c.env.incoming);
    if (!user.email && !user.phone) {
      throw new AuthError(
        400,
        'validation_failed',
        'Reauthentication requires the user to have an email or a phone number',
      );
    }
    if (user.email && !user.email_confirmed_at) {
      throw new AuthError(422, 'email_not_confirmed', 'Please verify your email first.');
    }
    if (!user.email) throw new AuthError(422, 'phone_not_confirmed', 'Please verify your phone first.');
    await deps.withTransaction((db) =>
      issueEmailToken(deps, db, user, 'reauthentication', { referrer: deps.config.siteUrl, mail: true }),
    );
    return jsonResponse(200, {});
  });
}
