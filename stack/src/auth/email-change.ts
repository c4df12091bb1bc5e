import type { PoolClient } from 'pg';
import type { AuthDeps } from './context.ts';
import { AuthError } from './http.ts';
import { findUserByEmail, findUserById, type UserRow } from './users.ts';
import { generateOtp, tokenHash } from './one-time-tokens.ts';

/**
 * GoTrue's e-mail change tokens (`generate_link` types email_change_current / email_change_new, and /verify
 * type email_change): the user row keeps the address asked for in `email_change` and one token hash per
 * address. `[auth.email] double_confirm_changes` is GoTrue's secure e-mail change: a token for the current
 * address may be asked for only then, and, while confirmations are on, both links must be followed.
 */
export type EmailChangeType = 'email_change_current' | 'email_change_new';

export async function issueEmailChangeToken(
  deps: AuthDeps,
  db: PoolClient,
  user: UserRow,
  type: EmailChangeType,
  newEmail: string,
): Promise<{ otp: string; hash: string; linkToken: string }> {
  if (type === 'email_change_current' && !deps.config.email.doubleConfirmChanges) {
    throw new AuthError(400, 'validation_failed', 'Enable secure email change to generate link for current email');
  }
  const other = await findUserByEmail(db, newEmail);
  if (other && other.id !== user.id) {
    throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
  }
  const otp = generateOtp(deps.config.email.otpLength);
  const hash = tokenHash(user.email ?? '', otp);
  const linkToken = type === 'email_change_current' ? hash : tokenHash(newEmail, otp);
  const column = type === 'email_change_current' ? 'email_change_token_current' : 'email_change_token_new';
  await db.query(
    `update auth.users set email_change = $2, email_change_sent_at = now(), email_change_confirm_status = 0,
       ${column} = $3 where id = $1`,
    [user.id, newEmail, linkToken],
  );
  return { otp, hash, linkToken };
}

/** The user whose current or new-address token is `hash` (GoTrue's `FindUserByEmailChangeToken`). */
export async function userByEmailChangeToken(deps: AuthDeps, db: PoolClient, hash: string): Promise<UserRow> {
  const { rows } = await db.query<{ id: string; expired: boolean }>(
    `select id, email_change_sent_at is null or email_change_sent_at < now() - make_interval(secs => $2) as expired
     from auth.users
     where $1 <> '' and (email_change_token_current = $1 or email_change_token_new = $1) limit 1 for update`,
    [hash, deps.config.email.otpExpiry],
  );
  if (!rows[0] || rows[0].expired) throw new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
  return (await findUserById(db, rows[0].id))!;
}

/** The user whose pending change `otp` confirms, from either address (`verifyUserAndToken`). */
export async function userByEmailChangeOtp(
  deps: AuthDeps,
  db: PoolClient,
  email: string,
  otp: string,
): Promise<{ user: UserRow; hash: string }> {
  const { rows } = await db.query<{ id: string; email: string; email_change: string }>(
    `select id, email, email_change from auth.users
     where lower(email) = lower($1) or lower(email_change) = lower($1) limit 1`,
    [email],
  );
  const row = rows[0];
  if (!row) throw new AuthError(403, 'otp_expired', 'Token has expired or is invalid');
  for (const address of [row.email, row.email_change]) {
    const hash = tokenHash(address, otp);
    try {
      return { user: await userByEmailChangeToken(deps, db, hash), hash };
    } catch {
      // the other address's token, if any
    }
  }
  throw new AuthError(403, 'otp_expired', 'Token has expired or is invalid');
}

/**
 * `emailChangeVerify`: with secure change and confirmations on, the first link only records itself ('pending');
 * otherwise the address changes now, the e-mail identity with it.
 */
export async function confirmEmailChange(
  deps: AuthDeps,
  db: PoolClient,
  user: UserRow,
  hash: string,
): Promise<'pending' | 'changed'> {
  const { rows } = await db.query<{ status: number; email_change: string; current: string; fresh: string }>(
    `select email_change_confirm_status as status, email_change, email_change_token_current as current,
       email_change_token_new as fresh from auth.users where id = $1`,
    [user.id],
  );
  const state = rows[0]!;
  const { enableConfirmations, doubleConfirmChanges } = deps.config.email;
  if (enableConfirmations && doubleConfirmChanges && state.status === 0 && user.email) {
    const column = hash === state.current ? 'email_change_token_current' : 'email_change_token_new';
    await db.query(`update auth.users set email_change_confirm_status = 1, ${column} = '' where id = $1`, [user.id]);
    return 'pending';
  }
  await db.query(
    `update auth.users set email = email_change, email_confirmed_at = coalesce(email_confirmed_at, now()),
       email_change = '', email_change_token_current = '', email_change_token_new = '',
       email_change_confirm_status = 0, email_change_sent_at = null, updated_at = now() where id = $1`,
    [user.id],
  );
  await db.query(
    `update auth.identities
       set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
         updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [user.id, state.email_change],
  );
  return 'changed';
}
