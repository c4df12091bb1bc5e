import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminDb, postgresDb, client, signedInUser, stackInfo } from '../../tests/helpers/clients.ts';

/**
 * The gateway and PostgREST as the browser and supabase-js meet them: RLS decides per role, CORS answers
 * as Kong does under `supabase start`.
 */

const table = `stack_probe_${crypto.randomUUID().replaceAll('-', '').slice(0, 8)}`;

/** PostgREST reloads its schema cache after DDL; wait until it has seen the table for a while. */
async function waitForPostgrest(path: string) {
  let seen = 0;
  for (let i = 0; i < 200 && seen < 10; i++) {
    const response = await fetch(`${stackInfo().apiUrl}/rest/v1/${path}`, {
      headers: { apikey: stackInfo().serviceRoleKey, authorization: `Bearer ${stackInfo().serviceRoleKey}` },
    });
    seen = response.status === 200 ? seen + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (seen < 10) throw new Error(`PostgREST never saw ${path}`);
}

beforeAll(async () => {
  const db = await postgresDb();
  try {
    // As a migration would: the non-superuser postgres role creates the table and its policies.
    await db.query(`
      create table public.${table} (
        id bigint generated always as identity primary key,
        owner uuid not null default auth.uid(),
        note text not null
      );
      alter table public.${table} enable row level security;
      create policy "Signed-in users read their own notes" on public.${table}
        for select to authenticated using (owner = (select auth.uid()));
      create policy "Signed-in users write their own notes" on public.${table}
        for insert to authenticated with check (owner = (select auth.uid()));
      create policy "Anyone reads the public note" on public.${table}
        for select to anon using (note = 'public');
    `);
    await db.query(`insert into public.${table} (owner, note) values (gen_random_uuid(), 'public')`);
  } finally {
    await db.end();
  }
  await waitForPostgrest(table);
});

afterAll(async () => {
  const db = await adminDb();
  try {
    await db.query(`drop table if exists public.${table}`);
  } finally {
    await db.end();
  }
});

describe('PostgREST behind the gateway', () => {
  it('lets anon read only what its policy allows and write nothing', async () => {
    const anon = client('anon');
    const read = await anon.from(table).select('note');
    expect(read.error).toBeNull();
    expect(read.data).toEqual([{ note: 'public' }]);
    const write = await anon.from(table).insert({ note: 'hola' });
    expect(write.error?.code, `${write.error?.message} ${write.status} ${JSON.stringify(write.error)}`).toBe('42501');
  });

  it('lets a signed-in user insert and read only their own rows', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const inserted = await alice.client.from(table).insert({ note: 'de Alice' }).select('note, owner').single();
    expect(inserted.error).toBeNull();
    expect(inserted.data).toEqual({ note: 'de Alice', owner: alice.user.id });

    expect((await alice.client.from(table).select('note')).data).toEqual([{ note: 'de Alice' }]);
    expect((await bob.client.from(table).select('note')).data).toEqual([]);

    const forged = await bob.client.from(table).insert({ note: 'suplantación', owner: alice.user.id });
    expect(forged.error?.code).toBe('42501');
  });

  it('lets the service role bypass RLS', async () => {
    const { data, error, count } = await client('service_role').from(table).select('note', { count: 'exact' });
    expect(error).toBeNull();
    expect(count).toBe(data?.length);
    expect(data?.map((row) => row.note)).toContain('public');
  });

  it('refuses a token signed with another secret', async () => {
    const forged =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIiwiZXhwIjo0MTAyNDQ0ODAwfQ.c2lnbmF0dXJlLWJ5LXNvbWVvbmUtZWxzZQ';
    const response = await fetch(`${stackInfo().apiUrl}/rest/v1/${table}`, {
      headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${forged}` },
    });
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe('PGRST301');
  });
});

describe('CORS at the gateway', () => {
  it('answers the browser preflight for a PostgREST request, echoing the requested headers', async () => {
    const requested = 'apikey, authorization, x-client-info, accept-profile, prefer';
    const response = await fetch(`${stackInfo().apiUrl}/rest/v1/${table}?select=*`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': requested,
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toBe(requested);
    expect(response.headers.get('access-control-allow-methods')).toMatch(/GET/);
  });

  it('sets Access-Control-Allow-Origin exactly once and exposes Content-Range on real responses', async () => {
    const response = await fetch(`${stackInfo().apiUrl}/rest/v1/${table}?select=note`, {
      headers: {
        origin: 'http://127.0.0.1:5173',
        apikey: stackInfo().anonKey,
        prefer: 'count=exact',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('content-range')).toMatch(/^0-0\/1$/);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/Content-Range/);
  });

  it('answers an unknown route with 404 JSON', async () => {
    const response = await fetch(`${stackInfo().apiUrl}/nothing/here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'no Route matched with those values' });
  });

  it('serves /health', async () => {
    const response = await fetch(`${stackInfo().apiUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('OK');
  });
});
