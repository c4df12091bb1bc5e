import { createPrivateKey, createPublicKey, type KeyObject, type webcrypto } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { JWK } from 'jose';

/** One asymmetric key of `signing_keys_path`, with the public half GoTrue publishes. */
export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  /** key_ops has "sign" (GoTrue signs with the one such key), or key_ops is absent. */
  canSign: boolean;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: JWK;
}

const ALGORITHMS = { RSA: 'RS256', EC: 'ES256' } as const;

/**
 * Reads config.toml's `[auth] signing_keys_path` as the Supabase CLI does: a JSON array of private JWKs
 * (`supabase gen signing-key` writes RS256 or ES256 ones, each with a `kid`). GoTrue accepts only one signing
 * key; the others verify tokens they signed before a rotation.
 */
export async function loadSigningKeys(file: string): Promise<SigningKey[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`auth.signing_keys_path: cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(parsed)) throw new Error(`auth.signing_keys_path: ${file} must hold a JSON array of JWKs`);
  const keys = parsed.map((jwk: JWK, index) => toSigningKey(jwk, `${file}[${index}]`));
  if (keys.filter((key) => key.canSign).length > 1) {
    throw new Error(`auth.signing_keys_path: ${file}: multiple signing keys detected, only 1 signing key is supported`);
  }
  return keys;
}

function toSigningKey(jwk: JWK, where: string): SigningKey {
  const alg = ALGORITHMS[jwk.kty as keyof typeof ALGORITHMS];
  if (!alg || (jwk.alg && jwk.alg !== alg)) {
    throw new Error(`auth.signing_keys_path: ${where}: only RS256 (RSA) and ES256 (EC P-256) keys are supported`);
  }
  if (!jwk.kid) throw new Error(`auth.signing_keys_path: ${where}: a key needs a "kid"`);
  if (!jwk.d) throw new Error(`auth.signing_keys_path: ${where}: a signing key must be a private JWK`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: jwk as webcrypto.JsonWebKey, format: 'jwk' });
  } catch (error) {
    throw new Error(`auth.signing_keys_path: ${where}: ${(error as Error).message}`, { cause: error });
  }
  const publicKey = createPublicKey(privateKey);
  const exported = publicKey.export({ format: 'jwk' }) as JWK;
  return {
    kid: jwk.kid,
    alg,
    canSign: !jwk.key_ops || jwk.key_ops.includes('sign'),
    privateKey,
    publicKey,
    publicJwk: { ...exported, kid: jwk.kid, alg, use: 'sig', key_ops: ['verify'] },
  };
}
