import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';
import { referrerOf } from '../redirects.ts';
import { validateEmail } from '../disabled-features.ts';
import { consumeEmailToken, userByEmailOtp, userByTokenHash, type EmailTokenType } from '../one-time-tokens.ts';
import type { PoolClient } from 'pg';
import type { IncomingMessage } from 'node:http';
import { confirmEmailChange, userByEmailChangeOtp, userByEmailChangeToken } from '../email-change.ts';

const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** What a verified e-mail change answers: a session, or (first of two secure links) GoTrue's message. */
type Verified = Record<string, unknown> | { pending: true };
const isPending = (value: Verified): value is { pending: true } => value.pending === true;

const OAUTH_ERRORS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/** Form-encoded like Go's `url.Values.Encode`: keys sorted, spaces as '+'. */
const encodeValues = (values: Record<string, string>) =>
  new URLSearchParams(Object.entries(values).sort(([a], [b]) => a.localeCompare(b))).toString();

/**
 * `GET /verify` (the link in a mail: redirects to `redirect_to` with the session in the URL fragment, or the
 * error there) and `POST /verify` (verifyOtp: `token_hash`, or `email` + `token`; answers the session).
 */
export function verifyRoutes(app: AuthApp, deps: AuthDeps) {
  const verified = async (
    db: PoolClient,
    incoming: IncomingMessage,
    found: { user: Parameters<typeof consumeEmailToken>[1]; type: EmailTokenType },
  ) => {
    await consumeEmailToken(db, found.user, found.type);
    return deps.issueSession(db, found.user, incoming, 'otp');
  };
  const emailChanged = async (
    db: PoolClient,
    incoming: IncomingMessage,
    found: { user: Parameters<typeof consumeEmailToken>[1]; hash: string },
  ): Promise<Verified> => {
    if ((await confirmEmailChange(deps, db, found.user, found.hash)) === 'pending') return { pending: true };
    return deps.issueSession(db, found.user, incoming, 'email/signup');
  };

  app.get('/verify', async (c) => {
    deps.limit('verify', c.env.incoming);
    const type = c.req.query('type') ?? '';
    const token = c.req.query('token') ?? '';
    const redirectTo = referrerOf(deps, c.req.raw);
    if (!type) throw new AuthError(400, 'validation_failed', 'Verify requires a verification type');
    if (!token) throw new AuthError(400, 'validation_failed', 'Verify requires a token or a token hash');
    try {
      const session: Verified = await deps.withTransaction(async (db) =>
        type === 'email_change'
          ? emailChanged(db, c.env.incoming, { user: await userByEmailChangeToken(deps, db, token), hash: token })
          : verified(db, c.env.incoming, await userByTokenHash(deps, db, type, token)),
      );
      if (isPending(session)) {
        return c.redirect(`${redirectTo}#${encodeValues({ message: SINGLE_CONFIRMATION_ACCEPTED, sb: '' })}`, 303);
      }
      const fragment = encodeValues({
        access_token: String(session.access_token),
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: String(session.refresh_token),
        sb: '',
        token_type: 'bearer',
        type,
      });
      return c.redirect(`${redirectTo}#${fragment}`, 303);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      // prepErrorRedirectURL: the error goes to the app too, in the fragment.
      const target = new URL(redirectTo);
      const values: Record<string, string> = {
        error_code: error.code,
        error_description: error.message,
        sb: '',
      };
      if (OAUTH_ERRORS[error.status]) values.error = OAUTH_ERRORS[error.status]!;
      target.hash = encodeValues(values);
      return c.redirect(target.toString(), 303);
    }
  });

  app.post('/verify', async (c) => {
    deps.limit('verify', c.env.incoming);
    const body = await readJsonBody(c.req.raw);
    const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : '');
    const type = text('type');
    if (!type) throw new AuthError(400, 'validation_failed', 'Verify requires a verification type');
    const [token, hash, email, phone] = [text('token'), text('token_hash'), text('email'), text('phone')];
    if (!token === !hash) {
      throw new AuthError(400, 'validation_failed', 'Verify requires either a token or a token hash');
    }
    if (token && !(email && !phone)) {
      // Phone OTPs: the number is checked as GoTrue's validatePhone does ("+" and spaces dropped, then E.164);
      // no user here has a phone, so no code can match (verifyUserAndToken's not-found answer).
      if (phone && !email) {
        if (!/^[1-9][0-9]{1,14}$/.test(phone.replace(/[+\s]/g, ''))) {
          throw new AuthError(400, 'validation_failed', 'Invalid phone number format (E.164 required)');
        }
        throw new AuthError(403, 'otp_expired', 'Token has expired or is invalid');
      }
      throw new AuthError(
        400,
        'validation_failed',
        'Only an email address or phone number should be provided on verify',
      );
    }
    if (hash && (email || phone || text('redirect_to'))) {
      throw new AuthError(400, 'validation_failed', 'Only the token_hash and type should be provided');
    }
    if (token) {
      try {
        validateEmail(email);
      } catch {
        throw new AuthError(422, 'validation_failed', 'Invalid email format');
      }
    }
    if (type === 'email_change') {
      const answer = await deps.withTransaction(async (db) =>
        emailChanged(
          db,
          c.env.incoming,
          token
            ? await userByEmailChangeOtp(deps, db, email, token)
            : { user: await userByEmailChangeToken(deps, db, hash), hash },
        ),
      );
      return jsonResponse(200, isPending(answer) ? { msg: SINGLE_CONFIRMATION_ACCEPTED, code: 200 } : answer);
    }
    const session = await deps.withTransaction(async (db) =>
      verified(
        db,
        c.env.incoming,
        token
          ? await userByEmailOtp(deps, db, type, email.toLowerCase(), token)
          : await userByTokenHash(deps, db, type, hash),
      ),
    );
    return jsonResponse(200, session);
  });
}
