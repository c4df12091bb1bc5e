import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StackInfo } from '../../tests/helpers/global-stack.ts';
import { featuresStack } from './helpers/features-stack.ts';
import { client, clientFor } from '../../tests/helpers/clients.ts';

/**
 * The OAuth 2.1 server's admin API through supabase-js's auth.admin.oauth, as GoTrue answers it when
 * `[auth.oauth_server] enabled = true`: create (the secret shown once), list, get, update, regenerate the
 * secret, delete; and 404 feature_disabled where the server is off (this project).
 */
let stack: StackInfo;

beforeAll(async () => {
  stack = await featuresStack();
}, 180_000);

const oauth = () => clientFor(stack.apiUrl, stack.serviceRoleKey).auth.admin.oauth;

describe('/admin/oauth/clients', () => {
  it('creates a confidential client, reads, updates, regenerates its secret and deletes it', async () => {
    const created = await oauth().createClient({
      client_name: 'Panel de recepción',
      redirect_uris: ['https://recepcion.example/callback', 'http://localhost:3000/callback'],
      client_uri: 'https://recepcion.example',
    });
    expect(created.error).toBeNull();
    const clientId = created.data!.client_id;
    expect(created.data).toMatchObject({
      client_type: 'confidential',
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      registration_type: 'manual',
      client_name: 'Panel de recepción',
    });
    expect(created.data!.client_secret).toMatch(/^[\w-]{43}$/);

    const fetched = await oauth().getClient(clientId);
    expect(fetched.data).toMatchObject({ client_id: clientId, client_uri: 'https://recepcion.example' });
    expect(fetched.data).not.toHaveProperty('client_secret');

    const listed = await oauth().listClients();
    expect(listed.error).toBeNull();
    expect(listed.data.clients.map((c) => c.client_id)).toContain(clientId);

    const updated = await oauth().updateClient(clientId, {
      client_name: 'Recepción',
      redirect_uris: ['https://recepcion.example/otra'],
    });
    expect(updated.data).toMatchObject({ client_name: 'Recepción', redirect_uris: ['https://recepcion.example/otra'] });

    const regenerated = await oauth().regenerateClientSecret(clientId);
    expect(regenerated.data!.client_secret).toMatch(/^[\w-]{43}$/);
    expect(regenerated.data!.client_secret).not.toBe(created.data!.client_secret);

    expect((await oauth().deleteClient(clientId)).error).toBeNull();
    const gone = await oauth().getClient(clientId);
    expect(gone.error).toMatchObject({ status: 404, code: 'oauth_client_not_found' });
  });

  it('makes a public client without a secret, and validates what it is given', async () => {
    const created = await oauth().createClient({
      client_name: 'App móvil',
      redirect_uris: ['com.hotel.app://callback'],
      token_endpoint_auth_method: 'none',
    });
    expect(created.data).toMatchObject({ client_type: 'public', token_endpoint_auth_method: 'none' });
    expect(created.data).not.toHaveProperty('client_secret');
    const regenerated = await oauth().regenerateClientSecret(created.data!.client_id);
    expect(regenerated.error).toMatchObject({ status: 400, message: 'Cannot regenerate secret for public client' });

    const insecure = await oauth().createClient({ client_name: 'x', redirect_uris: ['http://hotel.example/cb'] });
    expect(insecure.error).toMatchObject({
      status: 400,
      message: "invalid redirect_uri 'http://hotel.example/cb': HTTP scheme only allowed for localhost",
    });
    const none = await oauth().createClient({ client_name: 'x', redirect_uris: [] });
    expect(none.error?.message).toBe('redirect_uris cannot be empty');
    const unknown = await oauth().getClient(randomUUID());
    expect(unknown.error).toMatchObject({ status: 404, code: 'oauth_client_not_found' });
  });

  it('is an admin API: a user token gets 403', async () => {
    const anon = clientFor(stack.apiUrl, stack.anonKey);
    const email = `u-${randomUUID()}@test.local`;
    await anon.auth.signUp({ email, password: 'secreto-1' });
    const { data } = await anon.auth.signInWithPassword({ email, password: 'secreto-1' });
    const response = await fetch(`${stack.apiUrl}/auth/v1/admin/oauth/clients`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${data.session!.access_token}` },
    });
    expect(response.status).toBe(403);
  });
});

describe('/admin/oauth/clients where [auth.oauth_server] is off (this project)', () => {
  it('answers 404 feature_disabled', async () => {
    const { error } = await client('service_role').auth.admin.oauth.listClients();
    expect(error).toMatchObject({ status: 404, code: 'feature_disabled', message: 'OAuth server is disabled' });
  });
});
