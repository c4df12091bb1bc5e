import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, isObject, jsonResponse, readJsonBody } from '../http.ts';
import { validateEmail } from '../disabled-features.ts';
import { referrerOf } from '../redirects.ts';
import { findUserByEmail, userJsonById, type UserRow } from '../users.ts';
import { createUserFromBody } from '../user-writes.ts';
import { issueEmailToken } from '../one-time-tokens.ts';
import type { PoolClient } from 'pg';

const DUPLICATE_EMAIL = 'A user with this email address has already been registered';

/**
 * The invited user: a new unconfirmed account without a password, or the existing one if it never confirmed
 * (GoTrue re-invites those); a confirmed address is `email_exists`.
 */
export async function invitee(deps: AuthDeps, email: string, data: unknown): Promise<UserRow> {
  const existing = await findUserByEmail(deps.ctx.adminPool, email);
  if (existing?.email_confirmed_at) throw new AuthError(422, 'email_exists', DUPLICATE_EMAIL);
  if (existing) return existing;
  return createUserFromBody(deps, { email, user_metadata: isObject(data) ? data : {} }, { admin: true });
}

export async function requireEmail(raw: unknown): Promise<string> {
  const email = typeof raw === 'string' ? raw : '';
  if (!email) throw new AuthError(400, 'validation_failed', 'An email address is required');
  validateEmail(email);
  return email.toLowerCase();
}

/** `POST /invite` (auth.admin.inviteUserByEmail): creates the user and mails the invitation link. */
export function inviteRoutes(app: AuthApp, deps: AuthDeps) {
  app.post('/invite', async (c) => {
    await deps.requireAdmin(c.env.incoming);
    const body = await readJsonBody(c.req.raw);
    const email = await requireEmail(body.email);
    const user = await invitee(deps, email, body.data);
    const referrer = referrerOf(deps, c.req.raw);
    await deps.withTransaction((db: PoolClient) => issueEmailToken(deps, db, user, 'invite', { referrer, mail: true }));
    return jsonResponse(200, await userJsonById(deps.ctx.adminPool, user.id));
  });
}
