import { beforeAll, describe, expect, it } from 'vitest';
import type { StackInfo } from '../../tests/helpers/global-stack.ts';
import { featuresStack } from './helpers/features-stack.ts';
import { client, clientFor } from '../../tests/helpers/clients.ts';

/**
 * Anonymous sign-ins (`[auth] enable_anonymous_sign_ins`), as GoTrue's SignupAnonymously answers them: a user
 * with `is_anonymous` and no e-mail, a session whose token says so, and GoTrue's refusals for what needs an
 * address. Off in this project: `422 anonymous_provider_disabled`.
 */
let stack: StackInfo;

beforeAll(async () => {
  stack = await featuresStack();
}, 180_000);

describe('signInAnonymously', () => {
  it('makes an anonymous user with the metadata given, and a session that says so', async () => {
    const anon = clientFor(stack.apiUrl, stack.anonKey);
    const { data, error } = await anon.auth.signInAnonymously({ options: { data: { recepcion: 'Sevilla' } } });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ is_anonymous: true, email: '', user_metadata: { recepcion: 'Sevilla' } });
    expect(data.user?.identities).toEqual([]);
    expect(data.user?.app_metadata).toEqual({});
    const claims = (await anon.auth.getClaims()).data?.claims;
    expect(claims).toMatchObject({ is_anonymous: true, role: 'authenticated', aal: 'aal1' });
    expect(claims?.amr).toEqual([expect.objectContaining({ method: 'anonymous' })]);
    expect((await anon.auth.getUser()).data.user?.id).toBe(data.user?.id);

    const reauthenticate = await anon.auth.reauthenticate();
    expect(reauthenticate.error?.message).toBe('Reauthentication requires the user to have an email or a phone number');
  });

  it('says so in /settings', async () => {
    const response = await fetch(`${stack.apiUrl}/auth/v1/settings`, { headers: { apikey: stack.anonKey } });
    expect(((await response.json()) as { external: Record<string, boolean> }).external.anonymous_users).toBe(true);
  });

  it('is refused where config.toml leaves it off (this project)', async () => {
    const { error } = await client().auth.signInAnonymously();
    expect(error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled' });
  });
});
