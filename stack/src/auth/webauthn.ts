import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Pool, PoolClient } from 'pg';
import type { ProjectConfig } from '../project-config.ts';
import { AuthError, isObject } from './http.ts';
import type { UserRow } from './users.ts';

type Queryable = Pool | PoolClient;

/**
 * WebAuthn second factors as GoTrue keeps them (internal/api/mfa.go with go-webauthn): a challenge on an
 * unverified factor asks the authenticator to create a credential ("create"), on a verified one to sign
 * ("request"); the options and what verifying needs (challenge, relying party) are kept in
 * `auth.mfa_challenges.web_authn_session_data`, the credential in `auth.mfa_factors.web_authn_credential` with
 * go-webauthn's field names. Attestations and assertions are checked by @simplewebauthn/server.
 */

/** The relying party: `[auth.webauthn]` when set (GoTrue's WEBAUTHN_RP_*), else what the client says. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

export interface WebAuthnSession {
  challenge: string;
  rp_id: string;
  rp_origins: string[];
  user_verification: 'preferred';
}

/** go-webauthn's `webauthn.Credential` as GoTrue stores it (Go []byte fields are standard base64). */
interface StoredCredential {
  ID: string;
  PublicKey: string;
  AttestationType: string;
  Transport: string[];
  Authenticator: { AAGUID: string; SignCount: number; CloneWarning: boolean };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function relyingParty(config: ProjectConfig['auth'], params: unknown): RelyingParty {
  const asked = isObject(params) ? params : {};
  const askedOrigins = asked.rpOrigins ?? asked.rp_origins;
  const site = new URL(config.siteUrl);
  const id = config.webAuthn.rpId ?? (text(asked.rpId ?? asked.rp_id) || site.hostname);
  const origins = config.webAuthn.rpId
    ? config.webAuthn.rpOrigins
    : Array.isArray(askedOrigins) && askedOrigins.length
      ? askedOrigins.map(String)
      : [site.origin];
  return { id, name: config.webAuthn.rpDisplayName, origins };
}

const uuidBytes = (id: string) => Uint8Array.from(Buffer.from(id.replace(/-/g, ''), 'hex'));
const toBase64url = (standard: string) => Buffer.from(standard, 'base64').toString('base64url');

async function credentialsOf(db: Queryable, userId: string): Promise<StoredCredential[]> {
  const { rows } = await db.query<{ credential: StoredCredential }>(
    `select web_authn_credential as credential from auth.mfa_factors
     where user_id = $1 and factor_type = 'webauthn' and web_authn_credential is not null`,
    [userId],
  );
  return rows.map((row) => row.credential);
}

/** `BeginRegistration` / `BeginLogin`: the options the client hands its authenticator, and what to keep. */
export async function webAuthnChallenge(
  db: Queryable,
  user: UserRow,
  verified: boolean,
  rp: RelyingParty,
): Promise<{ type: 'create' | 'request'; publicKey: Record<string, unknown>; session: WebAuthnSession }> {
  const descriptors = (await credentialsOf(db, user.id)).map((credential) => ({
    id: toBase64url(credential.ID),
    transports: credential.Transport as AuthenticatorTransport[],
  }));
  const publicKey = verified
    ? await generateAuthenticationOptions({
        rpID: rp.id,
        allowCredentials: descriptors,
        userVerification: 'preferred',
        timeout: 300_000,
      })
    : await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userID: uuidBytes(user.id),
        userName: user.email ?? user.phone ?? user.id,
        attestationType: 'none',
        excludeCredentials: descriptors,
        authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
        timeout: 300_000,
      });
  const session: WebAuthnSession = {
    challenge: publicKey.challenge,
    rp_id: rp.id,
    rp_origins: rp.origins,
    user_verification: 'preferred',
  };
  return { type: verified ? 'request' : 'create', publicKey: { ...publicKey }, session };
}

const failed = (error: unknown): never => {
  throw new AuthError(
    500,
    'unexpected_failure',
    error instanceof AuthError ? error.message : 'Failed to validate WebAuthn MFA response',
  );
};

/** `CreateCredential`: checks the attestation against the kept challenge; the credential to store. */
export async function verifyCreation(session: WebAuthnSession, response: unknown): Promise<StoredCredential> {
  const result = await verifyRegistrationResponse({
    response: response as RegistrationResponseJSON,
    expectedChallenge: session.challenge,
    expectedOrigin: session.rp_origins,
    expectedRPID: session.rp_id,
    requireUserVerification: false,
  }).catch(failed);
  if (!result.verified) return failed(new Error('not verified'));
  const { credential, aaguid, fmt } = result.registrationInfo;
  return {
    ID: Buffer.from(credential.id, 'base64url').toString('base64'),
    PublicKey: Buffer.from(credential.publicKey).toString('base64'),
    AttestationType: fmt,
    Transport: credential.transports ?? [],
    Authenticator: {
      AAGUID: Buffer.from(aaguid.replace(/-/g, ''), 'hex').toString('base64'),
      SignCount: credential.counter,
      CloneWarning: false,
    },
  };
}

/** `ValidateLogin`: the assertion must come from one of the user's credentials; its new sign count. */
export async function verifyAssertion(
  db: Queryable,
  user: UserRow,
  session: WebAuthnSession,
  response: unknown,
): Promise<{ credential: StoredCredential; newCounter: number }> {
  const asserted = response as AuthenticationResponseJSON;
  const credential = (await credentialsOf(db, user.id)).find((stored) => toBase64url(stored.ID) === asserted?.id);
  if (!credential) return failed(new Error('unknown credential'));
  const result = await verifyAuthenticationResponse({
    response: asserted,
    expectedChallenge: session.challenge,
    expectedOrigin: session.rp_origins,
    expectedRPID: session.rp_id,
    credential: {
      id: asserted.id,
      publicKey: Uint8Array.from(Buffer.from(credential.PublicKey, 'base64')),
      counter: credential.Authenticator.SignCount,
      transports: credential.Transport as AuthenticatorTransport[],
    },
    requireUserVerification: false,
  }).catch(failed);
  if (!result.verified) return failed(new Error('not verified'));
  return { credential, newCounter: result.authenticationInfo.newCounter };
}

/** The AAGUID GoTrue keeps beside the credential (`web_authn_aaguid`), as a UUID. */
export function aaguidOf(credential: StoredCredential): string {
  const hex = Buffer.from(credential.Authenticator.AAGUID, 'base64').toString('hex').padEnd(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
