import type { Pool, PoolClient } from 'pg';
import QRCode from 'qrcode';
import { Secret, TOTP } from 'otpauth';
import { AuthError } from './http.ts';

type Queryable = Pool | PoolClient;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * GoTrue's TOTP factors (internal/api/mfa.go, internal/models/factor.go): SHA1, 6 digits, 30 s, one step of
 * clock skew; a challenge lives 300 s and is answered once from the address that asked for it; an unverified
 * factor is dropped after 300 s. The secret is kept as GoTrue keeps it without DB encryption: base32 text.
 */
export const CHALLENGE_EXPIRY_SECONDS = 300;
export const FACTOR_EXPIRY_SECONDS = 300;
export const MAX_ENROLLED_FACTORS = 10;
export const MAX_VERIFIED_FACTORS = 10;

const ts = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${column}`;

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: 'verified' | 'unverified';
  secret: string | null;
  created_at: string;
  updated_at: string;
  last_challenged_at: string | null;
}

const FACTOR_COLUMNS = `id, user_id, friendly_name, factor_type, status, secret, ${ts('created_at')}, ${ts('updated_at')},
  ${ts('last_challenged_at')}`;

/** The Factor object GoTrue returns (in `user.factors` and the admin API). */
export function factorJson(factor: FactorRow): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: factor.id,
    created_at: factor.created_at,
    updated_at: factor.updated_at,
    status: factor.status,
  };
  if (factor.friendly_name) json.friendly_name = factor.friendly_name;
  json.factor_type = factor.factor_type;
  json.phone = null;
  json.last_challenged_at = factor.last_challenged_at;
  return json;
}

export async function factorsOf(db: Queryable, userIds: string[]): Promise<Map<string, FactorRow[]>> {
  const byUser = new Map<string, FactorRow[]>();
  if (userIds.length === 0) return byUser;
  const { rows } = await db.query<FactorRow>(
    `select ${FACTOR_COLUMNS} from auth.mfa_factors where user_id = any($1::uuid[]) order by created_at`,
    [userIds],
  );
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  return byUser;
}

/** GoTrue's `loadFactor`: the factor must belong to the user. */
export async function ownedFactor(db: Queryable, userId: string, factorId: string | undefined): Promise<FactorRow> {
  if (!factorId || !UUID.test(factorId)) throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID');
  const { rows } = await db.query<FactorRow>(
    `select ${FACTOR_COLUMNS} from auth.mfa_factors where id = $1 and user_id = $2`,
    [factorId, userId],
  );
  if (!rows[0]) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
  return rows[0];
}

/** A new TOTP key and its otpauth:// URI, in the order GoTrue's `key.URL()` writes it. */
export function newTotpKey(issuer: string, accountName: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(accountName)}`;
  const query = new URLSearchParams({ algorithm: 'SHA1', digits: '6', issuer, period: '30', secret });
  return { secret, uri: `otpauth://totp/${label}?${query.toString()}` };
}

/**
 * The QR code of `uri` as SVG markup; auth-js turns it into `data:image/svg+xml;utf-8,<svg…>`, where a '#'
 * would end the URI, so colours are named rather than written as hex.
 */
export async function qrSvg(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H', margin: 2 });
  return svg
    .replace(/#ffffff/gi, 'white')
    .replace(/#000000/gi, 'black')
    .trim();
}

export function totpCodeIsValid(secret: string, code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.validate({ token: code, window: 1 }) !== null;
}

/**
 * GoTrue's `DowngradeSessionsToAAL1`: sessions that reached aal2 with this factor lose its AMR claim and go
 * back to aal1 (their next token says so).
 */
export async function downgradeSessions(db: PoolClient, factor: FactorRow): Promise<void> {
  await db.query(
    `delete from auth.mfa_amr_claims where authentication_method = $2
       and session_id in (select id from auth.sessions where factor_id = $1)`,
    [factor.id, factor.factor_type === 'webauthn' ? 'mfa/webauthn' : 'totp'],
  );
  await db.query(`update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where factor_id = $1`, [
    factor.id,
  ]);
}
