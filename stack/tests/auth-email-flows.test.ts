import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { adminDb, client, signedInUser, stackInfo } from '../../tests/helpers/clients.ts';
import { codeIn, mailsTo, nthMailTo, verifyLinkIn } from '../../tests/helpers/mail.ts';

/**
 * GoTrue's e-mail flows in the local Auth, end to end with supabase-js: every mail is read from the
 * local mail catcher's API, as a person would open it, and every link or code is used the way the app uses it.
 */
const APP = 'http://127.0.0.1:5173';

const newAddress = () => `persona-${crypto.randomUUID()}@hotel.example`;

async function confirmedUser() {
  const email = newAddress();
  const { data, error } = await client('service_role').auth.admin.createUser({
    email,
    password: 'contraseña-inicial-1',
    email_confirm: true,
  });
  if (error) throw error;
  return { email, id: data.user.id };
}

/** Follows an e-mail link without following the redirect, as the browser's first hop. */
async function openLink(link: string) {
  const response = await fetch(link, { redirect: 'manual' });
  const location = new URL(response.headers.get('location') ?? '');
  return { status: response.status, location, fragment: new URLSearchParams(location.hash.slice(1)) };
}

describe('password recovery', () => {
  it('mails a Spanish link that signs the person in at the app, once', async () => {
    const { email } = await confirmedUser();
    const { data, error } = await client('anon').auth.resetPasswordForEmail(email, {
      redirectTo: `${APP}/reset-password`,
    });
    expect(error).toBeNull();
    expect(data).toEqual({});

    const mail = await nthMailTo(email, 1);
    expect(mail.subject).toBe('Restablece tu contraseña de Mediateca');
    expect(mail.from).toBe('mediateca@example.com');
    expect(mail.html).toContain('Elegir una nueva contraseña');
    const link = verifyLinkIn(mail);
    expect(link).toContain('type=recovery');

    const opened = await openLink(link);
    expect(opened.status).toBe(303);
    expect(opened.location.origin + opened.location.pathname).toBe(`${APP}/reset-password`);
    expect(opened.fragment.get('type')).toBe('recovery');
    expect(opened.fragment.get('token_type')).toBe('bearer');
    const accessToken = opened.fragment.get('access_token')!;
    expect(decodeJwt(accessToken)).toMatchObject({ email, aal: 'aal1', amr: [{ method: 'otp' }] });

    // The session from the link may choose the new password, without the old one; the new one then signs in.
    const person = client('anon');
    const session = await person.auth.setSession({
      access_token: accessToken,
      refresh_token: opened.fragment.get('refresh_token')!,
    });
    expect(session.error).toBeNull();
    expect((await person.auth.updateUser({ password: 'nueva-contraseña-2' })).error).toBeNull();
    const signIn = await client('anon').auth.signInWithPassword({ email, password: 'nueva-contraseña-2' });
    expect(signIn.error).toBeNull();

    // The same link a second time: back to the app with GoTrue's error in the fragment.
    const reused = await openLink(link);
    expect(reused.status).toBe(303);
    expect(Object.fromEntries(reused.fragment)).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
      sb: '',
    });
  });

  it('answers an unknown address exactly like a known one and mails nobody', async () => {
    const email = newAddress();
    const { data, error } = await client('anon').auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});
    expect(await mailsTo(email)).toEqual([]);
  });

  it('refuses a link older than otp_expiry (3600 s) with otp_expired', async () => {
    const { email, id } = await confirmedUser();
    await client('anon').auth.resetPasswordForEmail(email);
    const tokenHash = new URL(verifyLinkIn(await nthMailTo(email, 1))).searchParams.get('token')!;
    const db = await adminDb();
    try {
      await db.query(`update auth.users set recovery_sent_at = now() - interval '3601 seconds' where id = $1`, [id]);
    } finally {
      await db.end();
    }
    const { data, error } = await client('anon').auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Email link is invalid or has expired' });
  });

  it('refuses a second mail to the same address within max_frequency', async () => {
    const { email, id } = await confirmedUser();
    const db = await adminDb();
    try {
      // As if a mail had just gone out (ten seconds ahead, so the check cannot race the clock).
      await db.query(`update auth.users set recovery_sent_at = now() + interval '10 seconds' where id = $1`, [id]);
    } finally {
      await db.end();
    }
    const { error } = await client('anon').auth.resetPasswordForEmail(email);
    expect(error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(error?.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);
    expect(await mailsTo(email)).toEqual([]);
  });
});

describe('sign-in code / magic link (existing people only)', () => {
  it('mails a code that signs in once', async () => {
    const { email } = await confirmedUser();
    const sent = await client('anon').auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(sent.error).toBeNull();
    const mail = await nthMailTo(email, 1);
    expect(mail.subject).toBe('Tu enlace para entrar en Mediateca');
    const code = codeIn(mail);
    expect(verifyLinkIn(mail)).toContain('type=magiclink');

    const person = client('anon');
    const verified = await person.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(email);
    expect(decodeJwt(verified.data.session!.access_token)).toMatchObject({ aal: 'aal1', amr: [{ method: 'otp' }] });

    const again = await client('anon').auth.verifyOtp({ email, token: code, type: 'email' });
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
  });

  it('refuses unknown addresses as GoTrue does with sign-ups off', async () => {
    const email = newAddress();
    const noCreate = await client('anon').auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(noCreate.error).toMatchObject({ status: 422, code: 'otp_disabled', message: 'Signups not allowed for otp' });
    const create = await client('anon').auth.signInWithOtp({ email });
    expect(create.error).toMatchObject({ status: 422, code: 'signup_disabled' });
    expect(await mailsTo(email)).toEqual([]);
  });

  it('refuses a wrong code', async () => {
    const { email } = await confirmedUser();
    await client('anon').auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const code = codeIn(await nthMailTo(email, 1));
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const { error } = await client('anon').auth.verifyOtp({ email, token: wrong, type: 'email' });
    expect(error).toMatchObject({ status: 403, code: 'otp_expired' });
  });
});

describe('invitations', () => {
  it('creates the account, mails the invitation, and the link confirms it so the person can choose a password', async () => {
    const email = newAddress();
    const admin = client('service_role').auth.admin;
    const invited = await admin.inviteUserByEmail(email, {
      redirectTo: `${APP}/reset-password`,
      data: { nombre: 'Inés' },
    });
    expect(invited.error).toBeNull();
    expect(invited.data.user).toMatchObject({ email, user_metadata: { nombre: 'Inés' } });
    expect(invited.data.user?.invited_at).toBeTruthy();
    expect(invited.data.user?.email_confirmed_at).toBeUndefined();

    const mail = await nthMailTo(email, 1);
    expect(mail.subject).toBe('Te han invitado a Mediateca');
    const opened = await openLink(verifyLinkIn(mail));
    expect(opened.fragment.get('type')).toBe('invite');
    const person = client('anon');
    await person.auth.setSession({
      access_token: opened.fragment.get('access_token')!,
      refresh_token: opened.fragment.get('refresh_token')!,
    });
    const { data: me } = await person.auth.getUser();
    expect(me.user?.email_confirmed_at).toBeTruthy();
    expect((await person.auth.updateUser({ password: 'mi-contraseña-3' })).error).toBeNull();
    expect((await client('anon').auth.signInWithPassword({ email, password: 'mi-contraseña-3' })).error).toBeNull();

    const twice = await admin.inviteUserByEmail(email);
    expect(twice.error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('is for the service role only', async () => {
    const { client: person } = await signedInUser();
    const { data } = await person.auth.getSession();
    const response = await fetch(`${stackInfo().apiUrl}/auth/v1/invite`, {
      method: 'POST',
      headers: {
        apikey: stackInfo().anonKey,
        authorization: `Bearer ${data.session!.access_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: newAddress() }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error_code: 'not_admin' });
  });

  it('resends the confirmation to an invited person who has not confirmed yet', async () => {
    const email = newAddress();
    await client('service_role').auth.admin.inviteUserByEmail(email);
    await nthMailTo(email, 1);
    const db = await adminDb();
    try {
      await db.query(`update auth.users set confirmation_sent_at = now() - interval '1 minute' where email = $1`, [
        email,
      ]);
    } finally {
      await db.end();
    }
    const resent = await client('anon').auth.resend({ type: 'signup', email });
    expect(resent.error).toBeNull();
    const mail = await nthMailTo(email, 2);
    expect(mail.subject).toBe('Confirma tu correo en Mediateca');
    const token = new URL(verifyLinkIn(mail)).searchParams.get('token')!;
    const verified = await client('anon').auth.verifyOtp({ token_hash: token, type: 'signup' });
    expect(verified.error).toBeNull();
    // Confirmed now: resending says nothing and mails nothing.
    expect((await client('anon').auth.resend({ type: 'signup', email })).error).toBeNull();
    expect(await mailsTo(email)).toHaveLength(2);
  });
});

describe('admin generate_link', () => {
  it('returns the link and code instead of mailing them', async () => {
    const { email } = await confirmedUser();
    const { data, error } = await client('service_role').auth.admin.generateLink({ type: 'recovery', email });
    expect(error).toBeNull();
    expect(data.properties).toMatchObject({ verification_type: 'recovery', redirect_to: APP });
    expect(data.properties?.action_link).toContain('/auth/v1/verify?token=');
    expect(data.properties?.email_otp).toMatch(/^\d{6}$/);
    expect(data.user?.email).toBe(email);
    expect(await mailsTo(email)).toEqual([]);

    const verified = await client('anon').auth.verifyOtp({
      email,
      token: data.properties!.email_otp,
      type: 'recovery',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(email);
  });

  it('refuses unknown people for recovery and callers without the service role', async () => {
    const unknown = await client('service_role').auth.admin.generateLink({ type: 'recovery', email: newAddress() });
    expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found' });
    const anon = await client('anon').auth.admin.generateLink({ type: 'recovery', email: newAddress() });
    expect(anon.error).toMatchObject({ status: 403, code: 'not_admin' });
  });
});

describe('reauthentication (secure_password_change)', () => {
  it('asks a day-old session for the mailed code before changing the password, and takes each code once', async () => {
    const { client: person, email, session, password } = await signedInUser({ email: newAddress() });
    const db = await adminDb();
    try {
      const sessionId = decodeJwt(session.access_token).session_id as string;
      await db.query(`update auth.sessions set created_at = now() - interval '25 hours' where id = $1`, [sessionId]);
    } finally {
      await db.end();
    }
    const needed = await person.auth.updateUser({ password: 'cambiada-4', current_password: password });
    expect(needed.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });

    expect((await person.auth.reauthenticate()).error).toBeNull();
    const mail = await nthMailTo(email, 1);
    expect(mail.subject).toMatch(/^Tu código de verificación de Mediateca: \d{6}$/);
    const nonce = codeIn(mail);
    const wrong = await person.auth.updateUser({
      password: 'cambiada-4',
      current_password: password,
      nonce: nonce === '000000' ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    expect(
      (await person.auth.updateUser({ password: 'cambiada-4', current_password: password, nonce })).error,
    ).toBeNull();
    const reused = await person.auth.updateUser({ password: 'cambiada-5', current_password: 'cambiada-4', nonce });
    expect(reused.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    expect((await client('anon').auth.signInWithPassword({ email, password: 'cambiada-4' })).error).toBeNull();
  });
});
