import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { AuthDeps } from './context.ts';
import { hashPassword } from './passwords.ts';
import { AuthError } from './http.ts';
import { findUserByEmail, findUserById, type UserRow } from './users.ts';
import type { MailKind } from './mail/mailer.ts';

/**
 * GoTrue's e-mailed one-time tokens (mail.go, verify.go): a numeric OTP goes in the mail, and the user row keeps
 * only `sha224(email + otp)` and when it was sent. The mail's link carries that hash (`token_hash`); the OTP
 * itself can be typed instead (`email` + `token`). A token is valid for `[auth.email] otp_expiry` seconds and
 * once: verifying clears it.
 */
export type EmailTokenType = 'recovery' | 'magiclink' | 'invite' | 'signup' | 'reauthentication';

const COLUMNS: Record<EmailTokenType, { token: string; sentAt: string; mail: MailKind }> = {
  recovery: { token: 'recovery_token', sentAt: 'recovery_sent_at', mail: 'recovery' },
  magiclink: { token: 'recovery_token', sentAt: 'recovery_sent_at', mail: 'magic_link' },
  invite: { token: 'confirmation_token', sentAt: 'confirmation_sent_at', mail: 'invite' },
  signup: { token: 'confirmation_token', sentAt: 'confirmation_sent_at', mail: 'confirmation' },
  reauthentication: { token: 'reauthentication_token', sentAt: 'reauthentication_sent_at', mail: 'reauthentication' },
};

const ERROR_SENDING: Record<EmailTokenType, string> = {
  recovery: 'Error sending recovery email',
  magiclink: 'Error sending magic link email',
  invite: 'Error sending invite email',
  signup: 'Error sending confirmation email',
  reauthentication: 'Error sending reauthentication email',
};

export const tokenHash = (emailOrPhone: string, otp: string) =>
  createHash('sha224')
    .update(emailOrPhone + otp)
    .digest('hex');

export function generateOtp(digits: number): string {
  let otp = '';
  for (let i = 0; i < digits; i++) otp += String(randomInt(10));
  return otp;
}

interface TokenState {
  token: string | null;
  sent_at: Date | null;
}

async function tokenState(db: PoolClient, userId: string, type: EmailTokenType): Promise<TokenState> {
  const { token, sentAt } = COLUMNS[type];
  const { rows } = await db.query<TokenState>(
    `select ${token} as token, ${sentAt} as sent_at from auth.users where id = $1 for update`,
    [userId],
  );
  return rows[0] ?? { token: null, sent_at: null };
}

/** The link in the mail (`GetEmailActionLink`): GoTrue's /verify, which redirects to `referrer`. */
export function actionLink(deps: AuthDeps, hash: string, type: string, referrer: string): string {
  const redirect = /[&=#]/.test(referrer) ? encodeURIComponent(referrer) : referrer;
  return `${deps.ctx.apiUrl}/auth/v1/verify?token=${hash}&type=${type}&redirect_to=${redirect}`;
}

/**
 * Stores a new token for `user` and returns it; `mail` sends it (inside the caller's transaction, so a mail
 * that cannot be sent leaves no token behind, as GoTrue). `[auth.email] max_frequency` limits how often.
 */
export async function issueEmailToken(
  deps: AuthDeps,
  db: PoolClient,
  user: UserRow,
  type: EmailTokenType,
  options: { referrer: string; mail: boolean },
): Promise<{ otp: string; hash: string; link: string }> {
  const email = user.email ?? '';
  const state = await tokenState(db, user.id, type);
  const frequencyMs = deps.config.email.maxFrequencySeconds * 1000;
  if (options.mail && type !== 'invite' && state.sent_at && state.sent_at.getTime() + frequencyMs > Date.now()) {
    const left = Math.floor((state.sent_at.getTime() + frequencyMs - Date.now()) / 1000);
    throw new AuthError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${left} seconds.`,
    );
  }
  const otp = generateOtp(deps.config.email.otpLength);
  const hash = tokenHash(email, otp);
  const { token, sentAt, mail } = COLUMNS[type];
  await db.query(
    `update auth.users set ${token} = $2, ${sentAt} = now()${type === 'invite' ? ', invited_at = now()' : ''}
     where id = $1`,
    [user.id, hash],
  );
  const link = actionLink(deps, hash, type, options.referrer);
  if (options.mail) {
    deps.limitEmail();
    try {
      await deps.mailer.send(mail, email, {
        SiteURL: deps.config.siteUrl,
        ConfirmationURL: link,
        Email: email,
        Token: otp,
        TokenHash: hash,
        RedirectTo: options.referrer,
      });
    } catch (error) {
      deps.ctx.log(`mail to ${email} failed: ${(error as Error).message}`);
      throw new AuthError(500, 'unexpected_failure', ERROR_SENDING[type]);
    }
  }
  return { otp, hash, link };
}

const isExpired = (deps: AuthDeps, sentAt: Date | null) =>
  !sentAt || Date.now() > sentAt.getTime() + deps.config.email.otpExpiry * 1000;

const linkExpired = () => new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
const tokenExpired = () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid');

/**
 * GoTrue's `verifyTokenHash`: the user whose stored hash matches. `email` looks at both the confirmation and
 * the recovery token and says which one it was (signup or magiclink).
 */
export async function userByTokenHash(
  deps: AuthDeps,
  db: PoolClient,
  type: string,
  hash: string,
): Promise<{ user: UserRow; type: EmailTokenType }> {
  const candidates: EmailTokenType[] =
    type === 'email'
      ? ['signup', 'magiclink']
      : type === 'signup' || type === 'invite' || type === 'recovery' || type === 'magiclink'
        ? [type]
        : [];
  if (candidates.length === 0) throw new AuthError(400, 'validation_failed', 'Invalid email verification type');
  for (const candidate of candidates) {
    const column = COLUMNS[candidate].token;
    const { rows } = await db.query<{ id: string }>(
      `select id from auth.users where ${column} = $1 and ${column} <> '' limit 1 for update`,
      [hash.replace(/^pkce_/, '')],
    );
    if (!rows[0]) continue;
    const user = (await findUserById(db, rows[0].id))!;
    if (user.is_banned) throw new AuthError(403, 'user_banned', 'User is banned');
    if (isExpired(deps, (await tokenState(db, user.id, candidate)).sent_at)) throw linkExpired();
    return { user, type: candidate };
  }
  throw linkExpired();
}

/** GoTrue's `verifyUserAndToken`: the e-mail's user, if `otp` is its current code of `type`. */
export async function userByEmailOtp(
  deps: AuthDeps,
  db: PoolClient,
  type: string,
  email: string,
  otp: string,
): Promise<{ user: UserRow; type: EmailTokenType }> {
  const user = await findUserByEmail(db, email);
  if (!user) throw tokenExpired();
  if (user.is_banned) throw new AuthError(403, 'user_banned', 'User is banned');
  const candidates: EmailTokenType[] =
    type === 'email'
      ? ['signup', 'magiclink']
      : ['signup', 'invite', 'recovery', 'magiclink'].includes(type)
        ? [type as EmailTokenType]
        : [];
  if (candidates.length === 0) throw new AuthError(400, 'validation_failed', 'Unsupported verification type');
  const hash = tokenHash(email.toLowerCase(), otp);
  for (const candidate of candidates) {
    const state = await tokenState(db, user.id, candidate);
    if (state.token && state.token.replace(/^pkce_/, '') === hash && !isExpired(deps, state.sent_at)) {
      return { user, type: candidate };
    }
  }
  throw tokenExpired();
}

/**
 * What a verified token does (`signupVerify` / `recoverVerify`): confirms the e-mail, gives an invited user a
 * random password until they choose one, and clears the token so it cannot be used twice.
 */
export async function consumeEmailToken(db: PoolClient, user: UserRow, type: EmailTokenType): Promise<void> {
  if (type === 'signup' || type === 'invite') {
    if (!user.encrypted_password && user.invited_at) {
      const password = randomBytes(48).toString('base64url');
      await db.query('update auth.users set encrypted_password = $2 where id = $1', [
        user.id,
        await hashPassword(password),
      ]);
    }
    await db.query(
      `update auth.users set confirmation_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()),
         updated_at = now() where id = $1`,
      [user.id],
    );
    await db.query(
      `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
       where user_id = $1 and provider = 'email'`,
      [user.id],
    );
  } else {
    await db.query(
      `update auth.users set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()),
         updated_at = now() where id = $1`,
      [user.id],
    );
  }
}

/** `PUT /user`'s `nonce` (`verifyReauthentication`): the code GET /reauthenticate mailed, once. */
export async function consumeReauthenticationNonce(
  deps: AuthDeps,
  db: PoolClient,
  user: UserRow,
  nonce: string,
): Promise<void> {
  const invalid = () => new AuthError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid');
  const state = await tokenState(db, user.id, 'reauthentication');
  if (!state.token || !state.sent_at) throw invalid();
  if (state.token !== tokenHash(user.email ?? '', nonce) || isExpired(deps, state.sent_at)) throw invalid();
  await db.query(`update auth.users set reauthentication_token = '' where id = $1`, [user.id]);
}
