import type { PoolClient } from 'pg';
import { UUID, type AuthDeps } from './context.ts';
import { hashPassword, passwordMatches } from './passwords.ts';
import { AuthError, isObject, optionalString } from './http.ts';
import { findUserByEmail, findUserById, findUserByPhone, insertUser, userJsonById, type UserRow } from './users.ts';
import * as disabled from './disabled-features.ts';

/** GoTrue's signup and admin create: the user row and its e-mail identity. */
export async function createUserFromBody(
  deps: AuthDeps,
  body: Record<string, unknown>,
  options: { admin: boolean },
): Promise<UserRow> {
  const email = optionalString(body.email)?.toLowerCase() ?? null;
  const phone = optionalString(body.phone) ?? null;
  const password = optionalString(body.password);
  const passwordHash = optionalString(body.password_hash);
  if (!email && !phone)
    throw new AuthError(400, 'validation_failed', 'Cannot create a user without either an email or phone');
  if (password && passwordHash) {
    throw new AuthError(400, 'validation_failed', 'Only a password or a password hash should be provided');
  }
  if (email) disabled.validateEmail(email);
  if (passwordHash && !/^\$2[aby]\$\d{2}\$/.test(passwordHash)) {
    throw new AuthError(400, 'validation_failed', 'Invalid password hash format');
  }
  if (!options.admin && !password) throw new AuthError(400, 'validation_failed', 'Signup requires a valid password');
  if (password) deps.checkPasswordStrength(password);
  const id = optionalString(body.id) ?? crypto.randomUUID();
  if (!UUID.test(id)) throw new AuthError(400, 'validation_failed', 'user_id must be an UUID');
  const role = options.admin ? (optionalString(body.role) ?? 'authenticated') : 'authenticated';
  const encryptedPassword = password ? await hashPassword(password) : (passwordHash ?? null);
  const appMetadata = options.admin && isObject(body.app_metadata) ? body.app_metadata : {};
  const userMetadata = isObject(options.admin ? body.user_metadata : body.data)
    ? ((options.admin ? body.user_metadata : body.data) as Record<string, unknown>)
    : {};
  const bannedUntil = parseBanDuration(body.ban_duration);

  return deps.withTransaction(async (db) => {
    if (email && (await findUserByEmail(db, email))) {
      throw options.admin
        ? new AuthError(422, 'email_exists', 'A user with this email address has already been registered')
        : new AuthError(422, 'user_already_exists', 'User already registered');
    }
    if (phone && (await findUserByPhone(db, phone))) {
      throw new AuthError(422, 'phone_exists', 'A user with this phone number has already been registered');
    }
    if (await findUserById(db, id)) throw new AuthError(422, 'user_already_exists', 'User already registered');
    await insertUser(db, {
      id,
      email,
      phone,
      encryptedPassword,
      // Sign-ups are auto-confirmed: config.toml has enable_confirmations = false (GoTrue MAILER_AUTOCONFIRM).
      emailConfirmed: options.admin ? body.email_confirm === true : true,
      phoneConfirmed: options.admin ? body.phone_confirm === true : !!phone,
      role,
      appMetadata,
      userMetadata,
      bannedUntil,
    });
    return (await findUserById(db, id))!;
  });
}

/** `PUT /user` and `PUT /admin/users/{id}`: GoTrue merges metadata and re-hashes a new password. */
export async function updateUserFromBody(
  deps: AuthDeps,
  user: UserRow,
  body: Record<string, unknown>,
  options: { admin: boolean; beforeWrite?: (db: PoolClient) => Promise<void> },
): Promise<Record<string, unknown>> {
  return deps.withTransaction(async (db) => {
    await options.beforeWrite?.(db);
    const password = optionalString(body.password);
    if (password) {
      deps.checkPasswordStrength(password);
      if (!options.admin && user.encrypted_password && (await passwordMatches(password, user.encrypted_password))) {
        throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
      }
      await db.query('update auth.users set encrypted_password = $2 where id = $1', [
        user.id,
        await hashPassword(password),
      ]);
    }
    const email = optionalString(body.email)?.toLowerCase();
    if (email && email !== user.email) {
      disabled.validateEmail(email);
      const other = await findUserByEmail(db, email);
      if (other && other.id !== user.id) {
        throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
      }
      await db.query('update auth.users set email = $2 where id = $1', [user.id, email]);
      await db.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text)
         where user_id = $1 and provider = 'email'`,
        [user.id, email],
      );
    }
    const metadataKey = options.admin ? 'user_metadata' : 'data';
    if (isObject(body[metadataKey])) {
      // GoTrue merges metadata; a key set to null is removed.
      await db.query(
        `update auth.users set raw_user_meta_data = jsonb_strip_nulls(coalesce(raw_user_meta_data, '{}') || $2::jsonb)
         where id = $1`,
        [user.id, body[metadataKey]],
      );
    }
    if (options.admin) {
      if (isObject(body.app_metadata)) {
        await db.query(
          `update auth.users set raw_app_meta_data = jsonb_strip_nulls(coalesce(raw_app_meta_data, '{}') || $2::jsonb)
           where id = $1`,
          [user.id, body.app_metadata],
        );
      }
      if (body.email_confirm === true) {
        await db.query('update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1', [
          user.id,
        ]);
      }
      if (optionalString(body.role))
        await db.query('update auth.users set role = $2 where id = $1', [user.id, body.role]);
      if (body.ban_duration !== undefined) {
        await db.query('update auth.users set banned_until = $2 where id = $1', [
          user.id,
          parseBanDuration(body.ban_duration),
        ]);
      }
    }
    await db.query('update auth.users set updated_at = now() where id = $1', [user.id]);
    return (await userJsonById(db, user.id))!;
  });
}

/** GoTrue's `ban_duration`: a Go duration such as "24h" or "90m", or "none" to lift a ban. */
function parseBanDuration(value: unknown): Date | null {
  if (value === undefined || value === null || value === 'none' || value === '') return null;
  if (typeof value !== 'string') throw new AuthError(400, 'validation_failed', 'ban_duration must be a duration');
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  const matches = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (matches.length === 0 || matches.map((m) => m[0]).join('') !== value) {
    throw new AuthError(400, 'validation_failed', 'invalid format for ban duration');
  }
  for (const match of matches) total += Number(match[1]) * units[match[2]!]!;
  return new Date(Date.now() + total);
}
