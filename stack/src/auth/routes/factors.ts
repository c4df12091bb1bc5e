import type { AuthApp, AuthContext } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, clientIp, jsonResponse, readJsonBody } from '../http.ts';
import { findUserById, usersJson } from '../users.ts';
import { addAmrClaim, insertRefreshToken, sessionJson, type SessionRow } from '../sessions.ts';
import {
  checkWebAuthnParams,
  storeWebAuthnCredential,
  verifyWebAuthnResponse,
  webAuthnChallengeFor,
} from './factors-webauthn.ts';
import type { WebAuthnSession } from '../webauthn.ts';
import {
  CHALLENGE_EXPIRY_SECONDS,
  FACTOR_EXPIRY_SECONDS,
  MAX_ENROLLED_FACTORS,
  MAX_VERIFIED_FACTORS,
  downgradeSessions,
  newTotpKey,
  ownedFactor,
  qrSvg,
  totpCodeIsValid,
} from '../mfa.ts';

/**
 * `/factors` (auth.mfa.enroll / challenge / verify / unenroll) for TOTP and WebAuthn, as GoTrue answers them.
 * Verifying a code or an authenticator's answer raises the caller's own session to aal2 (its JWT then carries
 * `aal: aal2` and a `totp` or `mfa/webauthn` AMR entry, which a refresh keeps) and ends the user's other aal1
 * sessions.
 */
export function factorRoutes(app: AuthApp, deps: AuthDeps) {
  const pool = deps.ctx.adminPool;

  /** The caller and the session of their token (every /factors route needs one). */
  const caller = async (c: AuthContext) => {
    const { claims, user } = await deps.authenticatedUser(c.env.incoming);
    const { rows } = await pool.query<SessionRow & { aal: string | null }>(
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
  };
  const ipOf = (c: AuthContext) => clientIp(c.env.incoming) ?? '127.0.0.1';

  app.post('/factors', async (c) => {
    const { user, session } = await caller(c);
    const body = await readJsonBody(c.req.raw);
    const type = typeof body.factor_type === 'string' ? body.factor_type : '';
    if (type === 'phone') throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
    if (type === 'webauthn' && !deps.config.webAuthnMfa.enrollEnabled) {
      throw new AuthError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
    }
    if (type !== 'totp' && type !== 'webauthn')
      throw new AuthError(400, 'validation_failed', 'factor_type needs to be totp, phone, or webauthn');
    const friendlyName = typeof body.friendly_name === 'string' ? body.friendly_name : '';
    const issuer = typeof body.issuer === 'string' && body.issuer ? body.issuer : new URL(deps.config.siteUrl).host;

    const enrolled = await deps.withTransaction(async (db) => {
      // validateFactors: expired unverified factors go first, then GoTrue's limits.
      await db.query(
        `delete from auth.mfa_factors where user_id = $1 and status = 'unverified'
           and created_at < now() - make_interval(secs => $2)`,
        [user.id, FACTOR_EXPIRY_SECONDS],
      );
      const { rows: factors } = await db.query<{ friendly_name: string | null; status: string }>(
        'select friendly_name, status from auth.mfa_factors where user_id = $1 for update',
        [user.id],
      );
      if (factors.some((factor) => (factor.friendly_name ?? '') === friendlyName)) {
        throw new AuthError(
          422,
          'mfa_factor_name_conflict',
          `A factor with the friendly name "${friendlyName}" for this user already exists`,
        );
      }
      const verified = factors.filter((factor) => factor.status === 'verified').length;
      if (factors.length >= MAX_ENROLLED_FACTORS || verified >= MAX_VERIFIED_FACTORS) {
        throw new AuthError(
          422,
          'too_many_enrolled_mfa_factors',
          'Maximum number of verified factors reached, unenroll to continue',
        );
      }
      if (verified > 0 && session.aal !== 'aal2') {
        throw new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
      }
      const key = type === 'totp' ? newTotpKey(issuer, user.email ?? '') : null;
      const { rows } = await db.query<{ id: string }>(
        `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
         values (gen_random_uuid(), $1, $2, $3, 'unverified', now(), now(), $4) returning id`,
        [user.id, friendlyName, type, key?.secret ?? null],
      );
      return { id: rows[0]!.id, key };
    });
    if (!enrolled.key) return jsonResponse(200, { id: enrolled.id, type: 'webauthn', friendly_name: friendlyName });
    const { secret, uri } = enrolled.key;
    return jsonResponse(200, {
      id: enrolled.id,
      type: 'totp',
      friendly_name: friendlyName,
      totp: { qr_code: await qrSvg(uri), secret, uri },
    });
  });

  app.post('/factors/:factorId/challenge', async (c) => {
    deps.limit('mfa', c.env.incoming);
    const { user } = await caller(c);
    const factor = await ownedFactor(pool, user.id, c.req.param('factorId'));
    const webauthn = factor.factor_type === 'webauthn' ? await webAuthnChallengeFor(deps, c, user, factor) : null;
    const { rows } = await pool.query<{ id: string; expires_at: number }>(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address, web_authn_session_data)
       values (gen_random_uuid(), $1, now(), $2::inet, $4)
       returning id, floor(extract(epoch from created_at))::int8 + $3 as expires_at`,
      [factor.id, ipOf(c), CHALLENGE_EXPIRY_SECONDS, webauthn?.session ?? null],
    );
    const answer = { id: rows[0]!.id, type: factor.factor_type, expires_at: Number(rows[0]!.expires_at) };
    return jsonResponse(200, webauthn ? { ...answer, webauthn: webauthn.answer } : answer);
  });

  app.post('/factors/:factorId/verify', async (c) => {
    deps.limit('mfa', c.env.incoming);
    const { user, session } = await caller(c);
    const factor = await ownedFactor(pool, user.id, c.req.param('factorId'));
    const body = await readJsonBody(c.req.raw);
    const code = typeof body.code === 'string' ? body.code : '';
    const webauthn = factor.factor_type === 'webauthn' ? checkWebAuthnParams(deps, body) : null;
    if (!code && !webauthn) throw new AuthError(400, 'validation_failed', 'Code needs to be non-empty');
    const challengeId = typeof body.challenge_id === 'string' ? body.challenge_id : '';

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
    if (challenge.verified || challenge.ip !== ipOf(c).replace(/^::ffff:/, '')) {
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
      await addAmrClaim(db, session.id, webauthn ? 'mfa/webauthn' : 'totp');
      await db.query('update auth.sessions set factor_id = $2 where id = $1', [session.id, factor.id]);
      // InvalidateSessionsWithAALLessThan(aal2) and DeleteUnverifiedFactors, as GoTrue does after a verify.
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
    });
    return jsonResponse(200, answer);
  });

  app.delete('/factors/:factorId', async (c) => {
    const { user, session } = await caller(c);
    const factor = await ownedFactor(pool, user.id, c.req.param('factorId'));
    if (factor.status === 'verified' && session.aal !== 'aal2') {
      throw new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    await deps.withTransaction(async (db) => {
      await downgradeSessions(db, factor);
      await db.query('delete from auth.mfa_factors where id = $1', [factor.id]);
    });
    return jsonResponse(200, { id: factor.id });
  });
}
