import type { Pool, PoolClient } from 'pg';
import type { AuthContext } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, isObject, readJsonBody } from '../http.ts';
import type { FactorRow } from '../mfa.ts';
import type { UserRow } from '../users.ts';
import {
  aaguidOf,
  relyingParty,
  verifyAssertion,
  verifyCreation,
  webAuthnChallenge,
  type WebAuthnSession,
} from '../webauthn.ts';

/** The WebAuthn parts of /factors/{id}/challenge and /verify (GoTrue's challenge/verifyWebAuthnFactor). */

const verifyDisabled = () =>
  new AuthError(422, 'mfa_webauthn_verify_not_enabled', 'MFA verification is disabled for WebAuthn');

/** The options the client hands `navigator.credentials` (`{type, credential_options: {publicKey}}`). */
export async function webAuthnChallengeFor(deps: AuthDeps, c: AuthContext, user: UserRow, factor: FactorRow) {
  if (!deps.config.webAuthnMfa.verifyEnabled) throw verifyDisabled();
  const body = await readJsonBody(c.req.raw);
  const rp = relyingParty(deps.config, body.webauthn);
  const { type, publicKey, session } = await webAuthnChallenge(
    deps.ctx.adminPool,
    user,
    factor.status === 'verified',
    rp,
  );
  return { session, answer: { type, credential_options: { publicKey } } };
}

export interface WebAuthnVerifyParams {
  type: 'create' | 'request';
  response: unknown;
}

/** The `webauthn` object of a verify request, checked as GoTrue checks it before touching the challenge. */
export function checkWebAuthnParams(deps: AuthDeps, body: Record<string, unknown>): WebAuthnVerifyParams {
  if (!deps.config.webAuthnMfa.verifyEnabled) throw verifyDisabled();
  const params = body.webauthn;
  if (!isObject(params)) throw new AuthError(400, 'validation_failed', 'WebAuthn config required');
  if (params.type !== 'create' && params.type !== 'request') {
    throw new AuthError(400, 'validation_failed', 'WebAuthn type must be create or request');
  }
  if (!isObject(params.credential_response)) {
    throw new AuthError(400, 'validation_failed', 'credential_response required');
  }
  return { type: params.type, response: params.credential_response };
}

/** The credential a "create" verified, or the one a "request" signed with (its sign count moved on). */
export async function verifyWebAuthnResponse(
  pool: Pool,
  user: UserRow,
  factor: FactorRow,
  session: WebAuthnSession | null,
  params: WebAuthnVerifyParams,
) {
  if (!session) throw new AuthError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  if (params.type === 'create') {
    if (factor.status === 'verified') {
      throw new AuthError(400, 'validation_failed', 'WebAuthn type must be request for a verified factor');
    }
    return verifyCreation(session, params.response);
  }
  const { credential, newCounter } = await verifyAssertion(pool, user, session, params.response);
  return { ...credential, Authenticator: { ...credential.Authenticator, SignCount: newCounter } };
}

export async function storeWebAuthnCredential(
  db: PoolClient,
  factorId: string,
  credential: Awaited<ReturnType<typeof verifyWebAuthnResponse>>,
): Promise<void> {
  await db.query(
    `update auth.mfa_factors set web_authn_credential = $2, web_authn_aaguid = $3::uuid, updated_at = now()
     where id = $1`,
    [factorId, credential, aaguidOf(credential)],
  );
}
