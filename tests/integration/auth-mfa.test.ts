import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { TOTP, Secret } from 'otpauth';
import type { SupabaseClient } from '@supabase/supabase-js';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { adminDb, client, signedInSeed, signedInUser } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * TOTP multi-factor in the local Auth with supabase-js's auth.mfa API, and `require_admin_mfa`:
 * with it on, an admin token that is only aal1 loses admin rights in Postgres and in the staff-users function.
 */
const codeFor = (secret: string, timestamp = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp });

async function enrolled(person: SupabaseClient) {
  const enroll = await person.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Móvil' });
  if (enroll.error) throw enroll.error;
  return enroll.data;
}

async function verifyWithCode(person: SupabaseClient, factorId: string, secret: string) {
  const challenge = await person.auth.mfa.challenge({ factorId });
  if (challenge.error) throw challenge.error;
  return person.auth.mfa.verify({ factorId, challengeId: challenge.data.id, code: codeFor(secret) });
}

describe('TOTP factors', () => {
  it('enrols with a QR code, and challenge → verify gives an aal2 session that a refresh keeps', async () => {
    const { client: person, email } = await signedInUser();
    const factor = await enrolled(person);
    expect(factor.type).toBe('totp');
    expect(factor.friendly_name).toBe('Móvil');
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg /);
    expect(factor.totp.qr_code).not.toContain('#');
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.totp.uri).toBe(
      `otpauth://totp/127.0.0.1%3A5173:${encodeURIComponent(email)}?algorithm=SHA1&digits=6&issuer=127.0.0.1%3A5173&period=30&secret=${factor.totp.secret}`,
    );

    const before = await person.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    const verified = await verifyWithCode(person, factor.id, factor.totp.secret);
    expect(verified.error).toBeNull();
    const claims = decodeJwt(verified.data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as Array<{ method: string }>).map((entry) => entry.method)).toEqual(['totp', 'password']);

    const { data: listed } = await person.auth.mfa.listFactors();
    expect(listed?.totp).toEqual([expect.objectContaining({ id: factor.id, status: 'verified' })]);

    const refreshed = await person.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe('aal2');
  });

  it('refuses a wrong code, a used challenge and an expired one with GoTrue codes', async () => {
    const { client: person } = await signedInUser();
    const factor = await enrolled(person);
    const challenge = await person.auth.mfa.challenge({ factorId: factor.id });
    const good = codeFor(factor.totp.secret);
    const wrong = good === '000000' ? '111111' : '000000';
    const refused = await person.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: wrong });
    expect(refused.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid TOTP code entered',
    });

    const ok = await person.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: good });
    expect(ok.error).toBeNull();
    const reused = await person.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: good });
    expect(reused.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });

    const old = await person.auth.mfa.challenge({ factorId: factor.id });
    const db = await adminDb();
    try {
      await db.query(`update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1`, [
        old.data!.id,
      ]);
    } finally {
      await db.end();
    }
    const expired = await person.auth.mfa.verify({ factorId: factor.id, challengeId: old.data!.id, code: good });
    expect(expired.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
  });

  it('asks aal2 to remove a verified factor, and removing it brings the session back to aal1', async () => {
    const { email, password } = await signedInUser();
    const first = client('anon');
    await first.auth.signInWithPassword({ email, password });
    const factor = await enrolled(first);
    await verifyWithCode(first, factor.id, factor.totp.secret);

    // A new password-only session of the same person is aal1: it may not remove the factor.
    const second = client('anon');
    await second.auth.signInWithPassword({ email, password });
    const refused = await second.auth.mfa.unenroll({ factorId: factor.id });
    expect(refused.error).toMatchObject({ status: 422, code: 'insufficient_aal' });
    const enrollMore = await second.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Otro' });
    expect(enrollMore.error).toMatchObject({ status: 403, code: 'insufficient_aal' });

    const removed = await first.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factor.id });
    const refreshed = await first.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe('aal1');
  });

  it('lists and deletes factors through the admin API, for the service role only', async () => {
    const { client: person, user } = await signedInUser();
    const factor = await enrolled(person);
    const admin = client('service_role').auth.admin.mfa;
    const { data, error } = await admin.listFactors({ userId: user.id });
    expect(error).toBeNull();
    expect(data?.factors).toEqual([
      expect.objectContaining({ id: factor.id, factor_type: 'totp', status: 'unverified', friendly_name: 'Móvil' }),
    ]);
    const anon = await client('anon').auth.admin.mfa.listFactors({ userId: user.id });
    expect(anon.error).toMatchObject({ status: 403, code: 'not_admin' });
    const deleted = await admin.deleteFactor({ userId: user.id, id: factor.id });
    expect(deleted.error).toBeNull();
    expect((await admin.listFactors({ userId: user.id })).data?.factors).toEqual([]);
  });
});

describe('require_admin_mfa', () => {
  let adminWithFactor: { person: SupabaseClient; factorId: string; secret: string };

  const setRequired = async (on: boolean) => {
    const db = await adminDb();
    try {
      await db.query('update private.security_settings set require_admin_mfa = $1', [on]);
    } finally {
      await db.end();
    }
  };

  beforeAll(async () => {
    const person = await signedInSeed('ADMIN');
    const factor = await enrolled(person);
    adminWithFactor = { person, factorId: factor.id, secret: factor.totp.secret };
    await setRequired(true);
  });

  afterAll(async () => {
    await setRequired(false);
    // The seed admin goes back to password-only sign-in for every other test.
    await client('service_role').auth.admin.mfa.deleteFactor({
      userId: seedAccounts.ADMIN.id,
      id: adminWithFactor.factorId,
    });
  });

  const staffUsersStatus = async (person: SupabaseClient) => {
    const { error } = await person.functions.invoke('staff-users', { body: { action: 'list' } });
    return error instanceof FunctionsHttpError ? (error.context as Response).status : error ? -1 : 200;
  };

  it('makes an aal1 admin an uploader in Postgres and refuses them in staff-users, until the code is given', async () => {
    const { person, factorId, secret } = adminWithFactor;
    expect((await person.rpc('current_staff_role')).data).toBe('UPLOADER');
    expect((await person.rpc('admin_mfa_required')).data).toBe(true);
    // Admin-only reads under RLS: the staff table shows an uploader only their own row.
    const { data: staffRows } = await person.from('staff').select('user_id');
    expect(staffRows).toEqual([{ user_id: seedAccounts.ADMIN.id }]);
    expect(await staffUsersStatus(person)).toBe(403);

    const verified = await verifyWithCode(person, factorId, secret);
    expect(verified.error).toBeNull();
    expect((await person.rpc('current_staff_role')).data).toBe('ADMIN');
    const { data: allStaff } = await person.from('staff').select('user_id');
    expect(allStaff!.length).toBeGreaterThan(1);
    expect(await staffUsersStatus(person)).toBe(200);
  });

  it('leaves uploaders and the setting-off case as they were', async () => {
    const uploader = await signedInSeed('UPLOADER');
    expect((await uploader.rpc('current_staff_role')).data).toBe('UPLOADER');
    await setRequired(false);
    try {
      const admin = await signedInSeed('ADMIN');
      expect(decodeJwt((await admin.auth.getSession()).data.session!.access_token).aal).toBe('aal1');
      expect((await admin.rpc('current_staff_role')).data).toBe('ADMIN');
    } finally {
      await setRequired(true);
    }
  });

  it('keeps staff-users invitations admin-only', async () => {
    const uploader = await signedInSeed('UPLOADER');
    const { error } = await uploader.functions.invoke('staff-users', {
      body: { action: 'invite', email: `nadie-${crypto.randomUUID()}@hotel.example`, role: 'UPLOADER' },
    });
    expect((error as FunctionsHttpError).context.status).toBe(403);
  });
});
