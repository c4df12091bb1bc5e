import type { AuthApp } from '../app.ts';
import { UUID, type AuthDeps } from '../context.ts';
import { AuthError } from '../http.ts';

/** `POST /logout?scope=global|local|others`: deletes sessions (their refresh tokens go with them). */
export function logoutRoutes(app: AuthApp, deps: AuthDeps) {
  app.post('/logout', async (c) => {
    const pool = deps.ctx.adminPool;
    const scope = c.req.query('scope') ?? 'global';
    if (!['global', 'local', 'others'].includes(scope)) {
      throw new AuthError(400, 'validation_failed', `Unsupported logout scope "${scope}"`);
    }
    const claims = await deps.authenticate(c.env.incoming);
    if (claims.sub && UUID.test(claims.sub)) {
      const sessionId = typeof claims.session_id === 'string' ? claims.session_id : null;
      if (scope === 'global' || !sessionId) {
        await pool.query('delete from auth.sessions where user_id = $1', [claims.sub]);
      } else if (scope === 'local') {
        await pool.query('delete from auth.sessions where id = $1', [sessionId]);
      } else {
        await pool.query('delete from auth.sessions where user_id = $1 and id <> $2', [claims.sub, sessionId]);
      }
    }
    return c.body(null, 204);
  });
}
