import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StackInfo } from '../../tests/helpers/global-stack.ts';
import { featuresStack } from './helpers/features-stack.ts';
import { clientFor, client } from '../../tests/helpers/clients.ts';
import { nthMailTo, verifyLinkIn } from '../../tests/helpers/mail.ts';

/**
 * Sign-ups through signInWithOtp and e-mail change links, as GoTrue answers them: with sign-ups on,
 * a magic link to an unknown address signs it up first (auto-confirmed); generateLink makes e-mail change links
 * when double_confirm_changes (secure e-mail change) is on, and following one changes the address.
 */
let stack: StackInfo;

beforeAll(async () => {
  stack = await featuresStack();
}, 180_000);

describe('signInWithOtp with sign-ups on', () => {
  it('signs up an unknown address and mails it a magic link that signs in', async () => {
    const email = `nuevo-${randomUUID()}@test.local`;
    const anon = clientFor(stack.apiUrl, stack.anonKey);
    const { error } = await anon.auth.signInWithOtp({ email, options: { data: { nombre: 'Ana' } } });
    expect(error).toBeNull();
    const followed = await fetch(verifyLinkIn(await nthMailTo(email, 1, stack.mailUrl!)), { redirect: 'manual' });
    const fragment = new URLSearchParams(new URL(followed.headers.get('location')!).hash.slice(1));
    expect(fragment.get('type')).toBe('magiclink');
    const { data } = await anon.auth.getUser(fragment.get('access_token')!);
    expect(data.user).toMatchObject({ email, user_metadata: { nombre: 'Ana' } });
    expect(data.user?.email_confirmed_at).toBeTruthy();
  });

  it('still refuses an unknown address with create_user false (otp_disabled)', async () => {
    const anon = clientFor(stack.apiUrl, stack.anonKey);
    const { error } = await anon.auth.signInWithOtp({
      email: `nadie-${randomUUID()}@test.local`,
      options: { shouldCreateUser: false },
    });
    expect(error).toMatchObject({ status: 422, code: 'otp_disabled' });
  });

  it('refuses it with signup_disabled where sign-ups are off (this project)', async () => {
    const { error } = await client().auth.signInWithOtp({ email: `nadie-${randomUUID()}@test.local` });
    expect(error).toMatchObject({ status: 422, code: 'signup_disabled' });
  });
});

describe('generateLink for an e-mail change', () => {
  const admin = () => clientFor(stack.apiUrl, stack.serviceRoleKey).auth.admin;

  it.each(['email_change_current', 'email_change_new'] as const)(
    'gives a %s link that changes the address when followed',
    async (type) => {
      const email = `antes-${randomUUID()}@test.local`;
      const newEmail = `despues-${randomUUID()}@test.local`;
      const created = await admin().createUser({ email, password: 'secreto-1', email_confirm: true });
      expect(created.error).toBeNull();
      const { data, error } = await admin().generateLink({
        type,
        email,
        newEmail,
        options: { redirectTo: 'http://localhost:5173/cuenta' },
      });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email, new_email: newEmail });
      expect(data.properties).toMatchObject({ verification_type: type, redirect_to: 'http://localhost:5173/cuenta' });
      expect(data.properties?.action_link).toMatch(/\/auth\/v1\/verify\?token=\w+&type=email_change&redirect_to=/);

      const followed = await fetch(data.properties!.action_link, { redirect: 'manual' });
      expect(followed.status).toBe(303);
      const fragment = new URLSearchParams(new URL(followed.headers.get('location')!).hash.slice(1));
      expect(fragment.get('type')).toBe('email_change');
      expect(fragment.get('access_token')).toBeTruthy();
      const user = (await admin().getUserById(created.data.user!.id)).data.user;
      expect(user?.email).toBe(newEmail);
      expect(user?.new_email).toBeUndefined();
    },
  );

  it('refuses an address another user has, and an unknown user', async () => {
    const [a, b] = [`a-${randomUUID()}@test.local`, `b-${randomUUID()}@test.local`];
    await admin().createUser({ email: a, password: 'secreto-1', email_confirm: true });
    await admin().createUser({ email: b, password: 'secreto-1', email_confirm: true });
    const taken = await admin().generateLink({ type: 'email_change_new', email: a, newEmail: b });
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
    const unknown = await admin().generateLink({
      type: 'email_change_current',
      email: `nadie-${randomUUID()}@test.local`,
      newEmail: `c-${randomUUID()}@test.local`,
    });
    expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found' });
  });
});

describe('verifyOtp with a phone number', () => {
  it('checks the number as E.164 first, as GoTrue', async () => {
    const anon = clientFor(stack.apiUrl, stack.anonKey);
    const invalid = await anon.auth.verifyOtp({ phone: '34600111222-invalid', token: '123456', type: 'sms' });
    expect(invalid.error).toMatchObject({ status: 400, message: 'Invalid phone number format (E.164 required)' });
    const unknown = await anon.auth.verifyOtp({ phone: '+34 600111222', token: '123456', type: 'sms' });
    expect(unknown.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });
});
