import { randomInt } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { JwtKeys } from '../jwt.ts';
import type { UserRow } from './users.ts';

type Queryable = Pool | PoolClient;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** GoTrue's opaque refresh token: 12 random alphanumeric characters from a CSPRNG. */
export function newRefreshTokenValue(): string {
  let token = '';
  for (let i = 0; i < 12; i++) token += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return token;
}

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  not_after: Date | null;
}

export interface TokenSettings {
  keys: JwtKeys;
  jwtExpiry: number;
  issuer: string;
}

/** Methods GoTrue counts as a second factor (`AMRClaim.IsAAL2Claim`). */
const AAL2_METHODS = new Set(['totp', 'mfa/totp', 'mfa/phone', 'mfa/webauthn']);

export interface AmrEntry {
  method: string;
  timestamp: number;
}

export async function createSession(
  db: PoolClient,
  userId: string,
  meta: { userAgent: string | null; ip: string | null },
): Promise<SessionRow> {
  const { rows } = await db.query<SessionRow>(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, refreshed_at, user_agent, ip)
     values (gen_random_uuid(), $1, now(), now(), 'aal1', now() at time zone 'UTC', $2, $3::inet)
     returning id, user_id, created_at, not_after`,
    [userId, meta.userAgent, meta.ip],
  );
  return rows[0]!;
}

/**
 * Records that the session passed `method` (GoTrue's `AddClaimToSession`: one row per method, its time
 * refreshed when passed again) and raises the session to aal2 for a second factor.
 */
export async function addAmrClaim(db: PoolClient, sessionId: string, method: string): Promise<void> {
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values (gen_random_uuid(), $1, now(), now(), $2)
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [sessionId, method],
  );
  if (AAL2_METHODS.has(method)) {
    await db.query(`update auth.sessions set aal = 'aal2', updated_at = now() where id = $1`, [sessionId]);
  }
}

/** The session's `aal` and `amr` claims, most recent method first (`CalculateALevelAndAMR`). */
export async function sessionAssurance(db: Queryable, session: SessionRow): Promise<{ aal: string; amr: AmrEntry[] }> {
  const { rows } = await db.query<{ method: string; at: number }>(
    `select authentication_method as method, floor(extract(epoch from updated_at))::int8 as at
     from auth.mfa_amr_claims where session_id = $1 order by updated_at desc`,
    [session.id],
  );
  const amr = rows.map((row) => ({ method: row.method, timestamp: Number(row.at) }));
  if (amr.length === 0) amr.push({ method: 'password', timestamp: Math.floor(session.created_at.getTime() / 1000) });
  return { aal: amr.some((entry) => AAL2_METHODS.has(entry.method)) ? 'aal2' : 'aal1', amr };
}

export async function insertRefreshToken(db: PoolClient, session: SessionRow, parent: string | null): Promise<string> {
  const token = newRefreshTokenValue();
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [token, session.user_id, parent, session.id],
  );
  return token;
}

/** Access-token claims exactly as GoTrue issues them. */
export async function accessToken(
  user: UserRow,
  session: SessionRow,
  assurance: { aal: string; amr: AmrEntry[] },
  settings: TokenSettings,
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(Date.now() / 1000);
  const expiresAt = issuedAt + settings.jwtExpiry;
  const token = await settings.keys.sign({
    iss: settings.issuer,
    sub: user.id,
    aud: user.aud ?? 'authenticated',
    exp: expiresAt,
    iat: issuedAt,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? 'authenticated',
    aal: assurance.aal,
    amr: assurance.amr,
    session_id: session.id,
    is_anonymous: user.is_anonymous,
  });
  return { token, expiresAt };
}

export async function sessionJson(
  db: Queryable,
  user: UserRow,
  userJson: Record<string, unknown>,
  session: SessionRow,
  refreshToken: string,
  settings: TokenSettings,
): Promise<Record<string, unknown>> {
  const { token, expiresAt } = await accessToken(user, session, await sessionAssurance(db, session), settings);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: settings.jwtExpiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson,
  };
}
