import type { Pool, PoolClient } from 'pg';
import { AuthError } from './http.ts';
import { factorJson, factorsOf, type FactorRow } from './mfa.ts';

type Queryable = Pool | PoolClient;

/** RFC 3339 in UTC with microseconds, as GoTrue serialises times. */
const ts = (column: string, alias = column) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${alias}`;

/**
 * Columns GoTrue reads into non-nullable Go fields (models.User): a NULL in any of them fails the scan, and
 * GoTrue answers 500. Users inserted with SQL that leave the token columns out (they have no default in
 * GoTrue's schema) cannot sign in on hosted Supabase; so the stack refuses them the same way.
 */
const GO_NON_NULL_COLUMNS = [
  'aud',
  'role',
  'confirmation_token',
  'recovery_token',
  'email_change_token_current',
  'email_change_token_new',
  'email_change',
  'email_change_confirm_status',
  'phone_change_token',
  'phone_change',
  'reauthentication_token',
  'created_at',
  'updated_at',
];

const USER_COLUMNS = [
  'u.id',
  'u.aud',
  'u.role',
  'u.email',
  'u.phone',
  'u.encrypted_password',
  'u.raw_app_meta_data',
  'u.raw_user_meta_data',
  'u.is_anonymous',
  'u.banned_until > now() as is_banned',
  "nullif(u.email_change, '') as new_email",
  ts('u.email_change_sent_at', 'email_change_sent_at'),
  ts('u.email_confirmed_at', 'email_confirmed_at'),
  ts('u.phone_confirmed_at', 'phone_confirmed_at'),
  ts('u.confirmed_at', 'confirmed_at'),
  ts('u.last_sign_in_at', 'last_sign_in_at'),
  ts('u.invited_at', 'invited_at'),
  ts('u.banned_until', 'banned_until'),
  ts('u.deleted_at', 'deleted_at'),
  ts('u.created_at', 'created_at'),
  ts('u.updated_at', 'updated_at'),
  `(${GO_NON_NULL_COLUMNS.map((column) => `u.${column} is null`).join(' or ')}) as unreadable`,
].join(', ');

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  phone: string | null;
  encrypted_password: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  is_anonymous: boolean;
  is_banned: boolean | null;
  /** An e-mail change waiting for its link (`email_change`). */
  new_email: string | null;
  email_change_sent_at: string | null;
  email_confirmed_at: string | null;
  phone_confirmed_at: string | null;
  confirmed_at: string | null;
  last_sign_in_at: string | null;
  invited_at: string | null;
  banned_until: string | null;
  deleted_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  /** A NULL where GoTrue cannot read one (GO_NON_NULL_COLUMNS). */
  unreadable: boolean;
}

/** GoTrue's 500 for a user row it cannot scan; the message depends on the endpoint, as GoTrue's does. */
function readable(row: UserRow | undefined, message: string): UserRow | null {
  if (row?.unreadable) throw new AuthError(500, 'unexpected_failure', message);
  return row ?? null;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  email: string | null;
  last_sign_in_at: string | null;
  created_at: string | null;
  updated_at: string | null;
}

export async function findUserById(
  db: Queryable,
  id: string,
  whenUnreadable = 'Database error loading user',
): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`select ${USER_COLUMNS} from auth.users u where u.id = $1`, [id]);
  return readable(rows[0], whenUnreadable);
}

export async function findUserByEmail(
  db: Queryable,
  email: string,
  whenUnreadable = 'Database error finding user',
): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users u
     where lower(u.email) = lower($1) and u.is_sso_user = false and u.deleted_at is null`,
    [email],
  );
  return readable(rows[0], whenUnreadable);
}

export async function findUserByPhone(
  db: Queryable,
  phone: string,
  whenUnreadable = 'Database error finding user',
): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users u where u.phone = $1 and u.deleted_at is null`,
    [phone],
  );
  return readable(rows[0], whenUnreadable);
}

export async function listUsers(
  db: Queryable,
  limit: number,
  offset: number,
): Promise<{ users: UserRow[]; total: number }> {
  const [{ rows }, count] = await Promise.all([
    db.query<UserRow>(`select ${USER_COLUMNS} from auth.users u order by u.created_at desc, u.id limit $1 offset $2`, [
      limit,
      offset,
    ]),
    db.query<{ total: string }>('select count(*) as total from auth.users'),
  ]);
  for (const row of rows) readable(row, 'Database error finding users');
  return { users: rows, total: Number(count.rows[0]?.total ?? 0) };
}

async function identitiesOf(db: Queryable, userIds: string[]): Promise<Map<string, IdentityRow[]>> {
  const byUser = new Map<string, IdentityRow[]>();
  if (userIds.length === 0) return byUser;
  const { rows } = await db.query<IdentityRow>(
    `select id, provider_id, user_id, identity_data, provider, email,
       ${ts('last_sign_in_at')}, ${ts('created_at')}, ${ts('updated_at')}
     from auth.identities where user_id = any($1::uuid[]) order by created_at`,
    [userIds],
  );
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  return byUser;
}

/** The User object GoTrue returns: optional keys are absent when null. */
function userJson(user: UserRow, identities: IdentityRow[], factors: FactorRow[]): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: user.id,
    aud: user.aud ?? '',
    role: user.role ?? '',
    email: user.email ?? '',
  };
  if (user.email_confirmed_at) json.email_confirmed_at = user.email_confirmed_at;
  json.phone = user.phone ?? '';
  if (user.phone_confirmed_at) json.phone_confirmed_at = user.phone_confirmed_at;
  if (user.confirmed_at) json.confirmed_at = user.confirmed_at;
  if (user.last_sign_in_at) json.last_sign_in_at = user.last_sign_in_at;
  if (user.invited_at) json.invited_at = user.invited_at;
  if (user.new_email) json.new_email = user.new_email;
  if (user.email_change_sent_at) json.email_change_sent_at = user.email_change_sent_at;
  json.app_metadata = user.raw_app_meta_data ?? {};
  json.user_metadata = user.raw_user_meta_data ?? {};
  json.identities = identities.map((identity) => {
    const item: Record<string, unknown> = {
      identity_id: identity.id,
      id: identity.provider_id,
      user_id: identity.user_id,
      identity_data: identity.identity_data,
      provider: identity.provider,
    };
    if (identity.last_sign_in_at) item.last_sign_in_at = identity.last_sign_in_at;
    item.created_at = identity.created_at;
    item.updated_at = identity.updated_at;
    if (identity.email) item.email = identity.email;
    return item;
  });
  // `factors,omitempty`: present only once the user has enrolled one (auth-js listFactors reads it).
  if (factors.length > 0) json.factors = factors.map(factorJson);
  json.created_at = user.created_at;
  json.updated_at = user.updated_at;
  if (user.banned_until) json.banned_until = user.banned_until;
  if (user.deleted_at) json.deleted_at = user.deleted_at;
  json.is_anonymous = user.is_anonymous;
  return json;
}

export async function usersJson(db: Queryable, users: UserRow[]): Promise<Record<string, unknown>[]> {
  const ids = users.map((u) => u.id);
  const [identities, factors] = await Promise.all([identitiesOf(db, ids), factorsOf(db, ids)]);
  return users.map((user) => userJson(user, identities.get(user.id) ?? [], factors.get(user.id) ?? []));
}

export async function userJsonById(db: Queryable, id: string): Promise<Record<string, unknown> | null> {
  const user = await findUserById(db, id);
  if (!user) return null;
  const [json] = await usersJson(db, [user]);
  return json ?? null;
}

export interface NewUser {
  id: string;
  email: string | null;
  phone: string | null;
  encryptedPassword: string | null;
  emailConfirmed: boolean;
  phoneConfirmed: boolean;
  role: string;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  bannedUntil: Date | null;
}

/** Inserts the user and its email (or phone) identity, as GoTrue's signup and admin create do. */
export async function insertUser(db: PoolClient, user: NewUser): Promise<void> {
  const provider = user.email ? 'email' : 'phone';
  const appMetadata = { provider, providers: [provider], ...user.appMetadata };
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, phone, encrypted_password, email_confirmed_at,
       phone_confirmed_at, raw_app_meta_data, raw_user_meta_data, banned_until, created_at, updated_at,
       confirmation_token, recovery_token, email_change_token_new, email_change, phone_change,
       phone_change_token, email_change_token_current, reauthentication_token, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', $2, $3, $4, $5,
       case when $6 then now() end, case when $7 then now() end, $8, $9, $10, now(), now(),
       '', '', '', '', '', '', '', '', false)`,
    [
      user.id,
      user.role,
      user.email,
      user.phone,
      user.encryptedPassword,
      user.emailConfirmed,
      user.phoneConfirmed,
      appMetadata,
      user.userMetadata,
      user.bannedUntil,
    ],
  );
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
     values ($1, $2, $3, $4, now(), now())`,
    [
      user.id,
      user.id,
      {
        sub: user.id,
        email: user.email ?? undefined,
        phone: user.phone ?? undefined,
        email_verified: false,
        phone_verified: false,
      },
      provider,
    ],
  );
}

/**
 * GoTrue's anonymous user (SignupAnonymously): `is_anonymous`, no e-mail, phone, password or identity, and no
 * provider in app_metadata.
 */
export async function insertAnonymousUser(db: PoolClient, userMetadata: Record<string, unknown>): Promise<UserRow> {
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, raw_app_meta_data, raw_user_meta_data, created_at,
       updated_at, confirmation_token, recovery_token, email_change_token_new, email_change, phone_change,
       phone_change_token, email_change_token_current, reauthentication_token, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', '{}',
       $1, now(), now(), '', '', '', '', '', '', '', '', true)
     returning id`,
    [userMetadata],
  );
  return (await findUserById(db, rows[0]!.id))!;
}
