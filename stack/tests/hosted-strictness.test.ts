import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthRetryableFetchError } from '@supabase/supabase-js';
import { adminDb, client, postgresDb, signedInSeed, stackInfo } from '../../tests/helpers/clients.ts';
import { PROJECT_ROOT } from '../src/stack.ts';

/**
 * What the running stack refuses because a hosted project refuses it (stack/README.md, "Never more lenient
 * than hosted"); the database side of the rule is in deploy-rehearsal.test.ts.
 */

describe('the Data API refuses an UPDATE or DELETE without filters, as pg-safeupdate does on hosted', () => {
  it('answers 400 / 21000 and changes nothing; the same request with a filter goes through', async () => {
    const admin = await signedInSeed('ADMIN');
    const before = await admin.from('tags').select('id', { count: 'exact', head: true });

    const unfilteredDelete = await admin.from('tags').delete();
    expect(unfilteredDelete.status).toBe(400);
    expect(unfilteredDelete.error).toMatchObject({ code: '21000', message: 'DELETE requires a WHERE clause' });
    const unfilteredUpdate = await admin.from('tag_categories').update({ hide_b2b: false });
    expect(unfilteredUpdate.error).toMatchObject({ code: '21000', message: 'UPDATE requires a WHERE clause' });
    expect((await admin.from('tags').select('id', { count: 'exact', head: true })).count).toBe(before.count);

    const filtered = await admin.from('tag_categories').update({ hide_b2b: false }).eq('id', crypto.randomUUID());
    expect(filtered.error).toBeNull();
  });

  it('every UPDATE and DELETE the migrations and the seed write has a WHERE clause', () => {
    const dir = path.join(PROJECT_ROOT, 'supabase/migrations');
    const files = [
      ...readdirSync(dir).map((file) => path.join(dir, file)),
      path.join(PROJECT_ROOT, 'supabase/seed.sql'),
    ];
    const unqualified = files.flatMap((file) => {
      const sql = readFileSync(file, 'utf8').replace(/--[^\n]*/g, '');
      return [...sql.matchAll(/\b(delete\s+from|update\s+[\w.]+(?:\s+\w+)?\s+set)\b[^;]*/gi)]
        .map((match) => match[0])
        .filter((statement) => !/\bwhere\b/i.test(statement))
        .map((statement) => `${path.basename(file)}: ${statement.replace(/\s+/g, ' ').slice(0, 80)}`);
    });
    expect(unqualified).toEqual([]);
  });
});

describe('Auth reads users as GoTrue does', () => {
  it('refuses to sign in a user whose row leaves the token columns NULL, as hosted answers a bad seed', async () => {
    const email = `sin-tokens-${crypto.randomUUID().slice(0, 8)}@test.local`;
    const db = await postgresDb();
    try {
      // What a seed written without GoTrue's columns inserts: the token columns have no default.
      await db.query(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
           raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
         values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1,
           extensions.crypt('contraseña-1', extensions.gen_salt('bf', 10)), now(),
           '{"provider":"email","providers":["email"]}', '{}', now(), now())`,
        [email],
      );
      // auth-js reports any 500 as a retryable fetch error; the body says what GoTrue says.
      const { error } = await client('anon').auth.signInWithPassword({ email, password: 'contraseña-1' });
      expect(error).toBeInstanceOf(AuthRetryableFetchError);
      expect(error).toMatchObject({ status: 500 });
      const response = await fetch(`${stackInfo().apiUrl}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: stackInfo().anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'contraseña-1' }),
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({
        error_code: 'unexpected_failure',
        msg: 'Database error querying schema',
      });
    } finally {
      await db.query('delete from auth.users where email = $1', [email]);
      await db.end();
    }
  });

  it('signs in the same user once the columns hold empty strings, as GoTrue writes them', async () => {
    const email = `con-tokens-${crypto.randomUUID().slice(0, 8)}@test.local`;
    const db = await adminDb();
    try {
      await db.query(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
           raw_app_meta_data, raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token,
           email_change_token_new, email_change)
         values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1,
           extensions.crypt('contraseña-1', extensions.gen_salt('bf', 10)), now(),
           '{"provider":"email","providers":["email"]}', '{}', now(), now(), '', '', '', '')`,
        [email],
      );
      const { data, error } = await client('anon').auth.signInWithPassword({ email, password: 'contraseña-1' });
      expect(error).toBeNull();
      expect(data.user?.email).toBe(email);
    } finally {
      await db.query('delete from auth.users where email = $1', [email]);
      await db.end();
    }
  });
});
