import { SignJWT, decodeProtectedHeader, jwtVerify, errors as joseErrors, type JWK, type JWTPayload } from 'jose';
import type { SigningKey } from './signing-keys.ts';

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

/**
 * The project's JWT keys, as GoTrue and the services that trust it hold them: the legacy HS256 secret (always
 * accepted, and what the anon and service-role keys are signed with) and, when config.toml's
 * `[auth] signing_keys_path` names a JWK array, asymmetric keys (RS256/ES256) picked by `kid`. User tokens are
 * signed with the signing key (key_ops "sign") when there is one, else with the secret.
 */
export class JwtKeys {
  private readonly byKid: Map<string, SigningKey>;
  readonly signingKey: SigningKey | null;

  constructor(
    readonly secret: string,
    readonly asymmetric: SigningKey[] = [],
  ) {
    this.byKid = new Map(asymmetric.map((key) => [key.kid, key]));
    this.signingKey = asymmetric.find((key) => key.canSign) ?? null;
  }

  /** A user token: the asymmetric signing key with its `kid` when configured, else HS256. */
  async sign(claims: Claims): Promise<string> {
    const key = this.signingKey;
    if (!key) return signJwt(claims, this.secret);
    return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
  }

  /**
   * GoTrue's `parseJWTClaims`: a `kid` it knows selects that public key; otherwise only HS256 with the secret.
   * `exp` is enforced when present.
   */
  async verify(token: string): Promise<Claims> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      // Not a JWS at all: jose's own verdict ("Invalid Compact JWS"), which storage-api and clients show.
      return verifyJwt(token, this.secret);
    }
    const known = typeof header.kid === 'string' ? this.byKid.get(header.kid) : undefined;
    if (known) {
      const { payload } = await jwtVerify(token, known.publicKey, { algorithms: [known.alg] });
      return payload as Claims;
    }
    if (header.alg !== 'HS256') {
      throw new Error(`unrecognized JWT kid ${String(header.kid ?? '<nil>')} for algorithm ${String(header.alg)}`);
    }
    return verifyJwt(token, this.secret);
  }

  /** `/auth/v1/.well-known/jwks.json`: the public keys only (GoTrue never publishes the HMAC secret). */
  publicJwks(): { keys: JWK[] } {
    return { keys: this.asymmetric.map((key) => key.publicJwk) };
  }

  /**
   * What PostgREST (`jwt-secret` as a JWKS), Storage, Realtime and the functions' SUPABASE_JWKS are given: the
   * public keys and the secret as an `oct` key, so tokens of either kind are accepted.
   */
  servicesJwks(): { keys: JWK[] } {
    const oct: JWK = { kty: 'oct', k: Buffer.from(this.secret, 'utf8').toString('base64url') };
    return { keys: [...this.publicJwks().keys, oct] };
  }
}

/** Verifies a JWT with `keys`, or an HS256 JWT with a bare secret (storage's signed URLs); `exp` is enforced. */
export async function verifyJwt(token: string, keys: string | JwtKeys): Promise<Claims> {
  if (keys instanceof JwtKeys) return keys.verify(token);
  const { payload } = await jwtVerify(token, keyFor(keys), { algorithms: ['HS256'] });
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
