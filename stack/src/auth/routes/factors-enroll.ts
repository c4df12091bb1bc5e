import type { PoolClient } from 'pg';
import type { AuthContext } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';
import type { UserRow } from '../users.ts';
import { FACTOR_EXPIRY_SECONDS, MAX_ENROLLED_FACTORS, MAX_VERIFIED_FACTORS, newTotpKey, qrSvg } from '../mfa.ts';
import { factorCaller, type FactorSession } from './factors-caller.ts';

/** `POST /factors` (auth.mfa.enroll): a new unverified TOTP factor with its secret and QR code, or a WebAuthn one. */
export async function enrollFactor(deps: AuthDeps, c: AuthContext): Promise<Response> {
  const { user, session } = await factorCaller(deps, c);
  const body = await readJsonBody(c.req.raw);
  const type = enrollableType(deps, body.factor_type);
  const friendlyName = typeof body.friendly_name === 'string' ? body.friendly_name : '';
  const issuer = typeof body.issuer === 'string' && body.issuer ? body.issuer : new URL(deps.config.siteUrl).host;

  const enrolled = await deps.withTransaction(async (db) => {
    await checkRoomForFactor(db, user, session, friendlyName);
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
}

/** The factor type asked for, if this project lets one enroll it (GoTrue's errors otherwise). */
function enrollableType(deps: AuthDeps, asked: unknown): 'totp' | 'webauthn' {
  const type = typeof asked === 'string' ? asked : '';
  if (type === 'phone') throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
  if (type === 'webauthn' && !deps.config.webAuthnMfa.enrollEnabled) {
    throw new AuthError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
  }
  if (type !== 'totp' && type !== 'webauthn')
    throw new AuthError(400, 'validation_failed', 'factor_type needs to be totp, phone, or webauthn');
  return type;
}

/**
 * GoTrue's validateFactors, with the user's factors locked: expired unverified factors go first, then a
 * friendly name may not repeat, the limits on enrolled and verified factors hold, and a user with a verified
 * factor enrolls another only from an aal2 session.
 */
async function checkRoomForFactor(db: PoolClient, user: UserRow, session: FactorSession, friendlyName: string) {
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
}
