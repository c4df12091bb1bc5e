import { describe, expect, it } from 'vitest';
import { AuthApiError, isAuthApiError, isAuthSessionMissingError } from '@supabase/supabase-js';
import { signJwt } from '../src/jwt.ts';
import { adminDb, client, signedInUser, stackInfo } from '../../tests/helpers/clients.ts';

const tamper = (jwt: string) => {
  const [header, payload, signature] = jwt.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
  claims.role = 'service_role';
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
};

describe('password sign-in', () => {
  it('signs in with the right password and returns a GoTrue session', async () => {
    const { email, password } = await signedInUser();
    const supabase = client();
    const { data, error } = await supabase.auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    expect(data.session?.token_type).toBe('bearer');
    expect(data.session?.expires_in).toBe(3600);
    expect(data.session?.refresh_token).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(data.user?.email).toBe(email);
    expect(data.user?.identities?.[0]?.provider).toBe('email');

    const claims = JSON.parse(Buffer.from(data.session!.access_token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims).toMatchObject({
      iss: `${stackInfo().apiUrl}/auth/v1`,
      sub: data.user!.id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      aal: 'aal1',
      is_anonymous: false,
    });
    expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.amr[0].method).toBe('password');
  });

  it('refuses a wrong password with 400 invalid_credentials', async () => {
    const { email } = await signedInUser();
    const { data, error } = await client().auth.signInWithPassword({ email, password: 'wrong-password' });
    expect(data.session).toBeNull();
    expect(isAuthApiError(error)).toBe(true);
    expect((error as AuthApiError).status).toBe(400);
    expect(error?.code).toBe('invalid_credentials');
    expect(error?.message).toBe('Invalid login credentials');
  });

  it('refuses an unknown user exactly like a wrong password', async () => {
    const { error } = await client().auth.signInWithPassword({ email: 'nobody@test.local', password: 'whatever1' });
    expect((error as AuthApiError).status).toBe(400);
    expect(error?.code).toBe('invalid_credentials');
  });

  it('refuses an unconfirmed e-mail', async () => {
    const email = `unconfirmed-${crypto.randomUUID()}@test.local`;
    const created = await client('service_role').auth.admin.createUser({ email, password: 'secreto-1' });
    expect(created.error).toBeNull();
    const { error } = await client().auth.signInWithPassword({ email, password: 'secreto-1' });
    expect(error?.code).toBe('email_not_confirmed');
  });

  it('sends the API version header on errors, so the browser client can read error.code', async () => {
    const response = await fetch(`${stackInfo().apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: {
        apikey: stackInfo().anonKey,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
        origin: 'http://127.0.0.1:5173',
      },
      body: JSON.stringify({ email: 'nobody@test.local', password: 'x' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(response.headers.get('access-control-expose-headers')).toMatch(/X-Supabase-Api-Version/);
    expect(await response.json()).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
  });

  it('refuses sign-ups, which are disabled in config.toml', async () => {
    const { error } = await client().auth.signUp({
      email: `new-${crypto.randomUUID()}@test.local`,
      password: 'secreto-1',
    });
    expect(error?.code).toBe('signup_disabled');
  });
});

describe('refresh tokens', () => {
  it('rotates on refresh, tolerates reuse within the interval and refuses it after', async () => {
    const { session } = await signedInUser();
    const supabase = client();
    const first = await supabase.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(first.error).toBeNull();
    const rotated = first.data.session!.refresh_token;
    expect(rotated).not.toBe(session.refresh_token);

    // Two tabs refreshing with the same token at once: the second gets the token that replaced it.
    const concurrent = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(concurrent.error).toBeNull();
    expect(concurrent.data.session!.refresh_token).toBe(rotated);

    // Past the reuse interval (10 s in config.toml) the old token is a stolen token.
    const db = await adminDb();
    try {
      await db.query(`update auth.refresh_tokens set updated_at = now() - interval '11 seconds' where token = $1`, [
        session.refresh_token,
      ]);
    } finally {
      await db.end();
    }
    const reused = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(reused.error?.code).toBe('refresh_token_already_used');

    // Reuse detection revokes the whole session: the newest token is dead too.
    const afterTheft = await client().auth.refreshSession({ refresh_token: rotated });
    expect(afterTheft.error?.code).toBe('refresh_token_already_used');
  });

  it('answers an unknown refresh token with refresh_token_not_found', async () => {
    const { error } = await client().auth.refreshSession({ refresh_token: 'AAAAAAAAAAAA' });
    expect(error?.code).toBe('refresh_token_not_found');
  });
});

describe('the current user', () => {
  it('returns the user for a valid token', async () => {
    const { client: supabase, user } = await signedInUser();
    const { data, error } = await supabase.auth.getUser();
    expect(error).toBeNull();
    expect(data.user?.id).toBe(user.id);
  });

  it('refuses a tampered token', async () => {
    const { session } = await signedInUser();
    const { data, error } = await client().auth.getUser(tamper(session.access_token));
    expect(data.user).toBeNull();
    expect(error?.code).toBe('bad_jwt');
  });

  it('refuses an expired token', async () => {
    const { user, session } = await signedInUser();
    const now = Math.floor(Date.now() / 1000);
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString('utf8'));
    const expired = await signJwt({ ...claims, sub: user.id, iat: now - 7200, exp: now - 3600 }, stackInfo().jwtSecret);
    const { error } = await client().auth.getUser(expired);
    expect(error?.code).toBe('bad_jwt');
    expect(error?.message).toMatch(/expired/);
  });

  it('refuses the anon key, which has no subject', async () => {
    const { error } = await client().auth.getUser(stackInfo().anonKey);
    expect(error?.code).toBe('bad_jwt');
  });

  it('changes the password only with the current one, as update_password_require_current_password says', async () => {
    const { client: supabase, email, password } = await signedInUser();
    const missing = await supabase.auth.updateUser({ password: 'otra-contraseña-3' });
    expect(missing.error).toMatchObject({ status: 400, code: 'current_password_required' });
    const wrong = await supabase.auth.updateUser({ password: 'otra-contraseña-3', current_password: 'no-es-esta' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'current_password_invalid' });
    expect(wrong.error?.message).toBe(missing.error?.message);
    expect((await client().auth.signInWithPassword({ email, password })).error).toBeNull();
    // Other changes of the user need no password.
    expect((await supabase.auth.updateUser({ data: { nombre: 'Ana' } })).error).toBeNull();
    const right = await supabase.auth.updateUser({ password: 'otra-contraseña-3', current_password: password });
    expect(right.error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: 'otra-contraseña-3' })).error).toBeNull();
  });

  it('changes the password: the new one works and the old one fails', async () => {
    const { client: supabase, email, password } = await signedInUser();
    const same = await supabase.auth.updateUser({ password, current_password: password });
    expect(same.error?.code).toBe('same_password');
    const weak = await supabase.auth.updateUser({ password: '123', current_password: password });
    expect(weak.error?.code).toBe('weak_password');
    const changed = await supabase.auth.updateUser({
      password: 'otra-contraseña-2',
      current_password: password,
      data: { nombre: 'Ana' },
    });
    expect(changed.error).toBeNull();
    expect(changed.data.user?.user_metadata).toMatchObject({ nombre: 'Ana' });
    expect((await client().auth.signInWithPassword({ email, password: 'otra-contraseña-2' })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password })).error?.code).toBe('invalid_credentials');
    // Stored as GoTrue stores it (Go's bcrypt: 2a, cost 10), so pgcrypto, and a hosted project, read it the same.
    const db = await adminDb();
    try {
      const { rows } = await db.query<{ encrypted_password: string; matches: boolean }>(
        `select encrypted_password, extensions.crypt($2, encrypted_password) = encrypted_password as matches
           from auth.users where email = $1`,
        [email, 'otra-contraseña-2'],
      );
      expect(rows[0]!.encrypted_password).toMatch(/^\$2a\$10\$/);
      expect(rows[0]!.matches).toBe(true);
    } finally {
      await db.end();
    }
  });
});

describe('sign-out', () => {
  it('global sign-out kills every refresh token and session of the user', async () => {
    const { client: supabase, email, password, session } = await signedInUser();
    const other = client();
    const second = await other.auth.signInWithPassword({ email, password });
    expect(second.error).toBeNull();

    expect((await supabase.auth.signOut({ scope: 'global' })).error).toBeNull();
    expect((await client().auth.refreshSession({ refresh_token: session.refresh_token })).error?.code).toMatch(
      /refresh_token_not_found|session_not_found/,
    );
    expect(
      (await client().auth.refreshSession({ refresh_token: second.data.session!.refresh_token })).error?.code,
    ).toMatch(/refresh_token_not_found|session_not_found/);
    // The access token still verifies, but its session is gone: auth-js turns that into "session missing".
    const afterSignOut = await client().auth.getUser(second.data.session!.access_token);
    expect(isAuthSessionMissingError(afterSignOut.error)).toBe(true);
  });

  it('local sign-out ends only the current session', async () => {
    const { client: supabase, email, password } = await signedInUser();
    const other = await client().auth.signInWithPassword({ email, password });
    expect((await supabase.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await client().auth.getUser(other.data.session!.access_token)).error).toBeNull();
  });
});

describe('admin users API', () => {
  it('creates, reads, lists with pagination headers, updates and deletes users with the service-role key', async () => {
    const admin = client('service_role').auth.admin;
    const email = `admin-api-${crypto.randomUUID()}@test.local`;
    const created = await admin.createUser({
      email,
      password: 'secreto-1',
      email_confirm: true,
      user_metadata: { nombre: 'Luis' },
      app_metadata: { equipo: 'marketing' },
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user!.app_metadata).toMatchObject({ provider: 'email', equipo: 'marketing' });

    const duplicate = await admin.createUser({ email, password: 'secreto-1' });
    expect(duplicate.error?.code).toBe('email_exists');

    const fetched = await admin.getUserById(id);
    expect(fetched.data.user?.email).toBe(email);
    expect((await admin.getUserById(crypto.randomUUID())).error?.code).toBe('user_not_found');

    const page = await admin.listUsers({ page: 1, perPage: 2 });
    expect(page.error).toBeNull();
    expect(page.data.users).toHaveLength(2);
    expect('total' in page.data && page.data.total).toBeGreaterThanOrEqual(3);
    expect('nextPage' in page.data && page.data.nextPage).toBe(2);
    const raw = await fetch(`${stackInfo().apiUrl}/auth/v1/admin/users?page=1&per_page=2`, {
      headers: { apikey: stackInfo().serviceRoleKey, authorization: `Bearer ${stackInfo().serviceRoleKey}` },
    });
    expect(raw.headers.get('x-total-count')).toMatch(/^\d+$/);
    expect(raw.headers.get('link')).toMatch(
      /^<\/admin\/users\?page=2&per_page=2>; rel="next", <\/admin\/users\?page=\d+&per_page=2>; rel="last"$/,
    );

    const updated = await admin.updateUserById(id, { password: 'nueva-clave-3', user_metadata: { nombre: 'Luis M.' } });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ nombre: 'Luis M.' });
    expect((await client().auth.signInWithPassword({ email, password: 'nueva-clave-3' })).error).toBeNull();

    expect((await admin.deleteUser(id)).error).toBeNull();
    expect((await admin.getUserById(id)).error?.code).toBe('user_not_found');
    expect((await client().auth.signInWithPassword({ email, password: 'nueva-clave-3' })).error?.code).toBe(
      'invalid_credentials',
    );
  });

  it('is refused with the anon key and with a user token', async () => {
    const asAnon = await client('anon').auth.admin.listUsers();
    expect(asAnon.error?.code).toBe('not_admin');
    expect((asAnon.error as AuthApiError).status).toBe(403);

    const { session } = await signedInUser();
    const asUser = await client('anon', session.access_token).auth.admin.createUser({
      email: `intruder-${crypto.randomUUID()}@test.local`,
      password: 'secreto-1',
    });
    expect(asUser.error?.code).toBe('not_admin');
  });
});
