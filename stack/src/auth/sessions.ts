import { randomInt } from 'node:crypto';
import type { PoolClient } from 'pg';
import { signJwt } from '../jwt.ts';
import type { UserRow } from './users.ts';

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
  jwtSecret: string;
  jwtExpiry: number;
  issuer: string;
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

export async function insertRefreshToken(db: PoolClient, session: SessionRow, parent: string | null): Promise<string> {
  const token = newRefreshTokenValue();
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [token, session.user_id, parent, session.id],
  );
  return token;
}

/** Access-token claims exactly as GoTrue issues them (LOCAL_STACK_CONTRACT.md 2.4). */
export async function accessToken(
  user: UserRow,
  session: SessionRow,
  settings: TokenSettings,
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(Date.now() / 1000);
  const expiresAt = issuedAt + settings.jwtExpiry;
  const token = await signJwt(
    {
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
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: Math.floor(session.created_at.getTime() / 1000) }],
      session_id: session.id,
      is_anonymous: user.is_anonymous,
    },
    settings.jwtSecret,
  );
  return { token, expiresAt };
}

export async function sessionJson(
  user: UserRow,
  userJson: Record<string, unknown>,
  session: SessionRow,
  refreshToken: string,
  settings: TokenSettings,
): Promise<Record<string, unknown>> {
  const { token, expiresAt } = await accessToken(user, session, settings);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: settings.jwtExpiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson,
  };
}
