import type { AuthApp, AuthContext } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse } from '../http.ts';
import { webAuthnChallengeFor } from './factors-webauthn.ts';
import { CHALLENGE_EXPIRY_SECONDS, downgradeSessions, ownedFactor } from '../mfa.ts';
import { callerIp, factorCaller } from './factors-caller.ts';
import { enrollFactor } from './factors-enroll.ts';
import { verifyFactor } from './factors-verify.ts';

/**
 * `/factors` (auth.mfa.enroll / challenge / verify / unenroll) for TOTP and WebAuthn, as GoTrue answers them.
 * Verifying a code or an authenticator's answer raises the caller's own session to aal2 (its JWT then carries
 * `aal: aal2` and a `totp` or `mfa/webauthn` AMR entry, which a refresh keeps) and ends the user's other aal1
 * sessions.
 */
export function factorRoutes(app: AuthApp, deps: AuthDeps) {
  app.post('/factors', (c) => enrollFactor(deps, c));
  app.post('/factors/:factorId/challenge', (c) => challengeFactor(deps, c));
  app.post('/factors/:factorId/verify', (c) => verifyFactor(deps, c));
  app.delete('/factors/:factorId', (c) => unenrollFactor(deps, c));
}

/** `POST /factors/{id}/challenge`: a challenge bound to the caller's address, with WebAuthn's options if any. */
async function challengeFactor(deps: AuthDeps, c: AuthContext): Promise<Response> {
  deps.limit('mfa', c.env.incoming);
  const pool = deps.ctx.adminPool;
  const { user } = await factorCaller(deps, c);
  const factor = await ownedFactor(pool, user.id, c.req.param('factorId'));
  const webauthn = factor.factor_type === 'webauthn' ? await webAuthnChallengeFor(deps, c, user, factor) : null;
  const { rows } = await pool.query<{ id: string; expires_at: number }>(
    `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address, web_authn_session_data)
     values (gen_random_uuid(), $1, now(), $2::inet, $4)
     returning id, floor(extract(epoch from created_at))::int8 + $3 as expires_at`,
    [factor.id, callerIp(c), CHALLENGE_EXPIRY_SECONDS, webauthn?.session ?? null],
  );
  const answer = { id: rows[0]!.id, type: factor.factor_type, expires_at: Number(rows[0]!.expires_at) };
  return jsonResponse(200, webauthn ? { ...answer, webauthn: webauthn.answer } : answer);
}

/** `DELETE /factors/{id}`: a verified factor goes only from an aal2 session, whose level goes down with it. */
async function unenrollFactor(deps: AuthDeps, c: AuthContext): Promise<Response> {
  const { user, session } = await factorCaller(deps, c);
  const factor = await ownedFactor(deps.ctx.adminPool, user.id, c.req.param('factorId'));
  if (factor.status === 'verified' && session.aal !== 'aal2') {
    throw new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  await deps.withTransaction(async (db) => {
    await downgradeSessions(db, factor);
    await db.query('delete from auth.mfa_factors where id = $1', [factor.id]);
  });
  return jsonResponse(200, { id: factor.id });
}
