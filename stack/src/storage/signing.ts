import { isExpiredError, signJwt, verifyJwt } from '../jwt.ts';
import { errors } from './errors.ts';
import type { Transform } from './render.ts';

/** Signed URLs: a JWT with the object's `bucket/name` as `url`, signed with the stack secret, as storage-api. */

export async function signedToken(secret: string, claims: Record<string, unknown>, expiresIn: number) {
  const now = Math.floor(Date.now() / 1000);
  return signJwt({ ...claims, iat: now, exp: now + expiresIn }, secret);
}

export async function verifySigned(secret: string, token: string | undefined, expectedUrl: string) {
  if (!token) throw errors.invalidSignature('Missing token');
  let claims;
  try {
    claims = await verifyJwt(token, secret);
  } catch (error) {
    throw isExpiredError(error) ? errors.expiredToken() : errors.invalidSignature();
  }
  if (claims.url !== expectedUrl) throw errors.invalidSignature('The signature does not match this object');
  return claims;
}

/** A transformation as the `transformations` claim of a signed render URL: `width:100,height:50`. */
export const transformToClaim = (t: Transform | null) =>
  t
    ? Object.entries(t)
        .map(([k, v]) => `${k}:${String(v)}`)
        .join(',')
    : undefined;

export const transformFromClaim = (claim: string) =>
  new URLSearchParams(claim.split(',').map((pair) => pair.split(':') as [string, string]));

/** An expiry in seconds from a JSON body, refused unless a positive number. */
export function expiresInOf(body: Record<string, unknown>): number {
  const expiresIn = Number(body.expiresIn);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) throw errors.invalidRequest('expiresIn must be a positive number');
  return expiresIn;
}
