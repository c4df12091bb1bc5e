import type { Pool, PoolClient } from 'pg';
import type { AuthContext } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';
import { findUserById, usersJson, type UserRow } from '../users.ts';
import { addAmrClaim, insertRefreshToken, sessionJson } from '../sessions.ts';
import type { WebAuthnSession } from '../webauthn.ts';
import { CHALLENGE_EXPIRY_SECONDS, ownedFactor, totpCodeIsValid, type FactorRow } from '../mfa.ts';
import { checkWebAuthnParams, storeWebAuthnCredential, verifyWebAuthnResponse } from './factors-webauthn.ts';
import { callerIp, factorCaller, type FactorSession } from './factors-caller.ts';

/**
 * `POST /factors/{id}/verify` (auth.mfa.verify): a TOTP code or an authenticator's answer to an open
 * challenge of the factor raises the caller's session to aal2 and answers the session anew.
 */
export async function verifyFactor(deps: AuthDeps, c: AuthContext): Promise<Response> {
  deps.limit('mfa', c.env.incoming);
  const pool = deps.ctx.adminPool;
  const { user, session } = await factorCaller(deps, c);
  const factor = await ownedFactor(pool, user.id, c.req.param('factorId'));
  const body = await readJsonBody(c.req.raw);
  const code = typeof body.code === 'string' ? body.code : '';
  const webauthn = factor.factor_type === 'webauthn' ? checkWebAuthnParams(deps, body) : null;
  if (!code && !webauthn) throw new AuthError(400, 'validation_failed', 'Code needs to be non-empty');
  const challengeId = typeof body.challenge_id === 'string' ? body.challenge_id : '';

  const challenge = await openChallenge(pool, factor, challengeId, callerIp(c));
  const credential = webauthn
    ? await verifyWebAuthnResponse(pool, user, factor, challenge.session_data, webauthn)
    : null;
  if (!webauthn && (!factor.secret || !totpCodeIsValid(factor.secret, code))) {
    throw new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
  }

  const answer = await deps.withTransaction(async (db) => {
    // A WebAuthn challenge is consumed (GoTrue destroys it); a TOTP one is marked verified.
    if (webauthn) await db.query('delete from auth.mfa_challenges where id = $1', [challenge.id]);
    else await db.query('update auth.mfa_challenges set verified_at = now() where id = $1', [challenge.id]);
    await db.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`, [factor.id]);
    if (credential) await storeWebAuthnCredential(db, factor.id, credential);
    return raiseSessionToAal2(deps, db, user, session, factor, webauthn ? 'mfa/webauthn' : 'totp');
  });
  return jsonResponse(200, answer);
}

/**
 * The factor's challenge `challengeId`, if it is still open to a verify from `ip`: not verified yet, asked
 * from the same address, and younger than its expiry (an expired one is deleted).
 */
async function openChallenge(pool: Pool, factor: FactorRow, challengeId: string, ip: string) {
  const { rows } = await pool.query<{
    id: string;
    verified: boolean;
    ip: string;
    age: number;
    session_data: WebAuthnSession | null;
  }>(
    `select id, verified_at is not null as verified, host(ip_address) as ip,
       extract(epoch from now() - created_at)::float8 as age, web_authn_session_data as session_data
     from auth.mfa_challenges where id::text = $1 and factor_id = $2`,
    [challengeId, factor.id],
  );
  const challenge = rows[0];
  if (!challenge) {
    throw new AuthError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  }
  if (challenge.verified || challenge.ip !== ip.replace(/^::ffff:/, '')) {
    throw new AuthError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
  }
  if (challenge.age > CHALLENGE_EXPIRY_SECONDS) {
    await pool.query('delete from auth.mfa_challenges where id = $1', [challenge.id]);
    throw new AuthError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  return challenge;
}

/**
 * The caller's session at aal2 through `factor` (an AMR entry its tokens carry from now on), the user's other
 * aal1 sessions and unverified factors of the same type gone, as GoTrue does after a verify; answers the
 * session with a new refresh token.
 */
async function raiseSessionToAal2(
  deps: AuthDeps,
  db: PoolClient,
  user: UserRow,
  session: FactorSession,
  factor: FactorRow,
  method: 'mfa/webauthn' | 'totp',
) {
  await addAmrClaim(db, session.id, method);
  await db.query('update auth.sessions set factor_id = $2 where id = $1', [session.id, factor.id]);
  // InvalidateSessionsWithAALLessThan(aal2) and DeleteUnverifiedFactors.
  await db.query(`delete from auth.sessions where user_id = $1 and id <> $2 and (aal is null or aal = 'aal1')`, [
    user.id,
    session.id,
  ]);
  await db.query(`delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = $2`, [
    user.id,
    factor.factor_type,
  ]);
  const refreshToken = await insertRefreshToken(db, session, null);
  const fresh = (await findUserById(db, user.id))!;
  const [json] = await usersJson(db, [fresh]);
  return sessionJson(db, fresh, json!, session, refreshToken, deps.tokens);
}
