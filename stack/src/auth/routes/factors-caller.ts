import type { AuthContext } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, clientIp } from '../http.ts';
import type { SessionRow } from '../sessions.ts';
import type { UserRow } from '../users.ts';

/** The session a /factors request's token belongs to, with the assurance level it has reached. */
export type FactorSession = SessionRow & { aal: string | null };

/** The caller and the session of their token: every /factors route needs both. */
export async function factorCaller(deps: AuthDeps, c: AuthContext): Promise<{ user: UserRow; session: FactorSession }> {
  const { claims, user } = await deps.authenticatedUser(c.env.incoming);
  const { rows } = await deps.ctx.adminPool.query<FactorSession>(
    'select id, user_id, created_at, not_after, aal from auth.sessions where id = $1',
    [typeof claims.session_id === 'string' ? claims.session_id : null],
  );
  if (!rows[0]) {
    throw new AuthError(
      500,
      'unexpected_failure',
      'A valid session and a registered user are required to enroll a factor',
    );
  }
  return { user, session: rows[0] };
}

/** The address a challenge is bound to, and a verify must come from. */
export const callerIp = (c: AuthContext) => clientIp(c.env.incoming) ?? '127.0.0.1';
