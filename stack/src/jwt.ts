import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';

export type Claims = JWTPayload & {
  role?: string;
  email?: string;
  session_id?: string;
  [key: string]: unknown;
};

const keyCache = new Map<string, Uint8Array>();
function keyFor(secret: string): Uint8Array {
  let key = keyCache.get(secret);
  if (!key) {
    key = new TextEncoder().encode(secret);
    keyCache.set(secret, key);
  }
  return key;
}

/** Verifies an HS256 JWT signed with the stack secret; `exp` is enforced when present. */
export async function verifyJwt(token: string, secret: string): Promise<Claims> {
  const { payload } = await jwtVerify(token, keyFor(secret), { algorithms: ['HS256'] });
  return payload as Claims;
}

export async function signJwt(claims: Claims, secret: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(keyFor(secret));
}

export function isExpiredError(error: unknown): boolean {
  return error instanceof joseErrors.JWTExpired;
}

/** `Bearer <token>` (case-insensitive, as GoTrue's `(?i)^bearer (\S+$)`); null when absent or malformed. */
export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const match = /^bearer (\S+)$/i.exec(authorization);
  return match ? match[1]! : null;
}
