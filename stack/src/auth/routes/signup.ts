import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, optionalString, readJsonBody } from '../http.ts';
import { createUserFromBody } from '../user-writes.ts';
import * as disabled from '../disabled-features.ts';

/** `POST /signup` (off in this project's config.toml: staff accounts are made by admins). */
export function signupRoutes(app: AuthApp, deps: AuthDeps) {
  app.post('/signup', async (c) => {
    deps.limit('signup', c.env.incoming);
    const body = await readJsonBody(c.req.raw);
    if (!optionalString(body.email) && !optionalString(body.phone)) disabled.anonymousSignIn();
    if (!deps.config.enableSignup) {
      throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
    }
    const user = await createUserFromBody(deps, body, { admin: false });
    return jsonResponse(200, await deps.withTransaction((db) => deps.issueSession(db, user, c.env.incoming)));
  });
}
