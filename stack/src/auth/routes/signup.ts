import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, isObject, jsonResponse, optionalString, readJsonBody } from '../http.ts';
import { insertAnonymousUser } from '../users.ts';
import { createUserFromBody } from '../user-writes.ts';
import * as disabled from '../disabled-features.ts';

/**
 * `POST /signup` (off in this project's config.toml: staff accounts are made by admins); with neither e-mail
 * nor phone, an anonymous sign-in when `enable_anonymous_sign_ins` is on (GoTrue's SignupAnonymously).
 */
export function signupRoutes(app: AuthApp, deps: AuthDeps) {
  app.post('/signup', async (c) => {
    deps.limit('signup', c.env.incoming);
    const body = await readJsonBody(c.req.raw);
    const anonymous = !optionalString(body.email) && !optionalString(body.phone);
    if (anonymous && !deps.config.enableAnonymousSignIns) disabled.anonymousSignIn();
    if (!deps.config.enableSignup) {
      throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
    }
    if (anonymous) {
      deps.limit('anonymous', c.env.incoming);
      const metadata = isObject(body.data) ? body.data : {};
      return jsonResponse(
        200,
        await deps.withTransaction(async (db) =>
          deps.issueSession(db, await insertAnonymousUser(db, metadata), c.env.incoming, 'anonymous'),
        ),
      );
    }
    const user = await createUserFromBody(deps, body, { admin: false });
    return jsonResponse(200, await deps.withTransaction((db) => deps.issueSession(db, user, c.env.incoming)));
  });
}
