import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startPostgres,
  type PostgresHandle,
  bootstrapDatabase,
  pushMigrations,
  runSupabaseCli,
  freePort,
  PROJECT_ROOT,
  HOSTED_DEFAULT_EXTENSIONS,
  HOSTED_POSTGRES_MEMBERSHIPS,
} from '@mediateca/stack';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * The first deploy, rehearsed: a database holding only what a new hosted project holds (the stack's
 * bootstrap, held to stack/src/hosted-defaults.ts), `postgres` with hosted's rights and nothing more, then
 * `supabase db push` of supabase/migrations as `postgres`, Supabase's advisors and RLS as each role.
 */

let database: PostgresHandle;
let dataDir: string;
const log = () => {};

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** Runs `sql` as an API role with a JWT's claims, the way PostgREST does, as the `postgres` login. */
async function asRole<T extends pg.QueryResultRow>(role: string, claims: Record<string, unknown>, sql: string) {
  const client = new pg.Client({ connectionString: database.postgresUrl });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
      role,
      JSON.stringify({ role, ...claims }),
    ]);
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.query('rollback').catch(() => {});
    await client.end();
  }
}

const countAsSuperuser = async (sql: string) => (await query<{ n: number }>(database.adminUrl, sql))[0]!.n;

const appliedVersions = async () =>
  (await query<{ version: string }>(database.adminUrl, 'select version from supabase_migrations.schema_migrations'))
    .map((row) => row.version)
    .sort();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-rehearsal-'));
  database = await startPostgres({ dataDir, port: await freePort(), majorVersion: 17, log });
  await bootstrapDatabase(database.adminUrl, log);
}, 120_000);

afterAll(async () => {
  await database?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a new project, before the first push', () => {
  it('has only the extensions a new hosted project has enabled', async () => {
    const installed = await query<{ extname: string; schema: string }>(
      database.adminUrl,
      'select extname, extnamespace::regnamespace::text as schema from pg_extension order by 1',
    );
    const expected = Object.entries(HOSTED_DEFAULT_EXTENSIONS)
      .filter(([, extension]) => extension.availableHere)
      .map(([extname, { schema }]) => ({ extname, schema }))
      .sort((a, b) => a.extname.localeCompare(b.extname));
    expect(installed).toEqual(expected);
  });

  it('has a postgres role with hosted rights: no superuser, no membership hosted does not grant', async () => {
    const [role] = await query<{ rolsuper: boolean; rolbypassrls: boolean; rolcreaterole: boolean }>(
      database.adminUrl,
      `select rolsuper, rolbypassrls, rolcreaterole from pg_roles where rolname = 'postgres'`,
    );
    expect(role).toEqual({ rolsuper: false, rolbypassrls: true, rolcreaterole: true });
    const memberships = await query<{ role: string }>(
      database.adminUrl,
      `select m.roleid::regrole::text as role from pg_auth_members m
        where m.member = 'postgres'::regrole and (m.inherit_option or m.set_option) order by 1`,
    );
    const allowed: readonly string[] = HOSTED_POSTGRES_MEMBERSHIPS;
    expect(memberships.map((m) => m.role).filter((name) => !allowed.includes(name))).toEqual([]);
    expect(memberships.map((m) => m.role)).not.toContain('supabase_storage_admin');
  });
});

describe('supabase db push', () => {
  it('refuses a migration a hosted project would refuse, naming it and quoting Postgres', async () => {
    const fixture = path.join(PROJECT_ROOT, 'tests/fixtures/extension-not-enabled-project');
    const push = pushMigrations({ projectRoot: fixture, postgresUrl: database.postgresUrl, includeSeed: false, log });
    await expect(push).rejects.toThrow(/20261124110000_trigram_index_without_extension\.sql/);
    await expect(push).rejects.toThrow(/gin_trgm_ops.* does not exist/);
    expect(await query(database.adminUrl, `select to_regclass('public.notes') as t`)).toEqual([{ t: null }]);
  }, 120_000);

  it('applies every migration as postgres, and a second push changes nothing', async () => {
    await pushMigrations({ projectRoot: PROJECT_ROOT, postgresUrl: database.postgresUrl, includeSeed: false, log });
    const local = (await readdir(path.join(PROJECT_ROOT, 'supabase/migrations')))
      .map((file) => file.split('_')[0]!)
      .sort();
    expect(await appliedVersions()).toEqual(local);

    const schema = `select md5(string_agg(x, ',' order by x)) as digest from (
        select p.oid::regprocedure::text || md5(pg_get_functiondef(p.oid)) as x from pg_proc p
         where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
        union all select c.oid::regclass::text || c.relkind::text from pg_class c
         where c.relnamespace in ('public'::regnamespace, 'private'::regnamespace, 'analytics'::regnamespace)
        union all select polname || polrelid::regclass::text from pg_policy) s`;
    const before = await query(database.adminUrl, schema);
    const output = await runSupabaseCli(['db', 'push', `--remote=${database.postgresUrl}`, '--yes'], {
      cwd: PROJECT_ROOT,
    });
    expect(output).toMatch(/up to date/i);
    expect(await query(database.adminUrl, schema)).toEqual(before);
    expect(await appliedVersions()).toEqual(local);
  }, 180_000);

  it('seeds the demo data as a deploying engineer would (`--include-seed`)', async () => {
    await pushMigrations({ projectRoot: PROJECT_ROOT, postgresUrl: database.postgresUrl, includeSeed: true, log });
    expect(await countAsSuperuser('select count(*)::int as n from public.files')).toBeGreaterThan(0);
  }, 120_000);

  it('refuses, saying what to do, a database built from other migration files', async () => {
    const history = 'supabase_migrations.schema_migrations';
    const push = () =>
      pushMigrations({ projectRoot: PROJECT_ROOT, postgresUrl: database.postgresUrl, includeSeed: false, log });
    // A version this checkout does not have (a file since folded into its concern's).
    await query(
      database.adminUrl,
      `insert into ${history} (version, name, statements) values ('20261127130200', 'gone', '{}')`,
    );
    try {
      await expect(push()).rejects.toThrow(/no longer has \(20261127130200\).*Delete the stack's data folder/s);
    } finally {
      await query(database.adminUrl, `delete from ${history} where version = '20261127130200'`);
    }
    // A version whose file changed after it was applied; comments and layout are not changes.
    const [applied] = await query<{ version: string; statements: string[] }>(
      database.adminUrl,
      `select version, statements from ${history} where name = 'operations_popup'`,
    );
    try {
      await query(database.adminUrl, `update ${history} set statements = $1 where version = $2`, [
        applied!.statements.map((statement) => `-- a comment\n  ${statement}\n`),
        applied!.version,
      ]);
      await push();
      await query(
        database.adminUrl,
        `update ${history} set statements = statements || '{select 1}' where version = $1`,
        [applied!.version],
      );
      await expect(push()).rejects.toThrow(/changed since they were applied \(\d+_operations_popup\.sql\)/);
    } finally {
      await query(database.adminUrl, `update ${history} set statements = $1 where version = $2`, [
        applied!.statements,
        applied!.version,
      ]);
    }
    await push();
  }, 180_000);

  it('leaves Supabase advisors with no ERROR and no security WARN', async () => {
    const output = await runSupabaseCli(
      ['db', 'advisors', `--remote=${database.postgresUrl}`, '--type', 'all', '--output-format', 'json'],
      { cwd: PROJECT_ROOT },
    );
    const { results } = JSON.parse(output) as {
      results: Array<{ name: string; level: string; categories: string[]; detail: string }>;
    };
    const problems = results.filter(
      (r) => r.level === 'ERROR' || (r.level === 'WARN' && r.categories.includes('SECURITY')),
    );
    expect(problems.map((p) => `${p.level} ${p.name}: ${p.detail}`)).toEqual([]);
  }, 120_000);
});

describe('RLS on the deployed schema, as each role', () => {
  const user = (role: keyof typeof seedAccounts) => ({ sub: seedAccounts[role].id, aal: 'aal1' });
  const countFiles = 'select count(*)::int as n from public.files';

  it('anon reads no table, only a published file through its RPC', async () => {
    await expect(asRole('anon', {}, countFiles)).rejects.toMatchObject({ code: '42501' });
    const [published] = await query<{ id: string }>(
      database.adminUrl,
      'select id from public.files where published limit 1',
    );
    const [shared] = await asRole<{ file: { id: string } }>(
      'anon',
      {},
      `select public.get_public_file('${published!.id}') as file`,
    );
    expect(shared!.file.id).toBe(published!.id);
  });

  it('an ADMIN reads every file, an UPLOADER their own, FRONT none', async () => {
    const total = await countAsSuperuser('select count(*)::int as n from public.files');
    expect(await asRole('authenticated', user('ADMIN'), countFiles)).toEqual([{ n: total }]);
    const own = await countAsSuperuser(
      `select count(*)::int as n from public.files where uploader_id = '${seedAccounts.UPLOADER.id}'`,
    );
    expect(own).toBeLessThan(total);
    expect(await asRole('authenticated', user('UPLOADER'), countFiles)).toEqual([{ n: own }]);
    expect(await asRole('authenticated', user('FRONT'), countFiles)).toEqual([{ n: 0 }]);
  });

  it('an UPLOADER cannot publish, an ADMIN can; the service role reads everything', async () => {
    await expect(
      asRole('authenticated', user('UPLOADER'), `update public.files set published = true where not published`),
    ).rejects.toMatchObject({ code: '42501' });
    const [changed] = await asRole<{ n: number }>(
      'authenticated',
      user('ADMIN'),
      `select public.publish_files(true, p_filter => '{}'::jsonb) as n`,
    );
    expect(changed!.n).toBeGreaterThan(0);
    expect((await asRole<{ n: number }>('service_role', {}, countFiles))[0]!.n).toBeGreaterThan(0);
  });
});

describe('what postgres may do to tables it does not own, as supautils allows on hosted', () => {
  const asPostgres = (sql: string) => query(database.postgresUrl, sql);

  it('creates and drops policies on storage.objects, and nothing else there', async () => {
    await asPostgres(`create policy "rehearsal" on storage.objects for select to authenticated using (false)`);
    await asPostgres(`drop policy "rehearsal" on storage.objects`);
    await expect(asPostgres('alter table storage.objects add column rehearsal text')).rejects.toMatchObject({
      code: '42501',
    });
    await expect(
      asPostgres(`create policy "rehearsal" on auth.mfa_factors for select to authenticated using (false)`),
    ).rejects.toThrow(/must be owner of table mfa_factors/);
  });

  it('cannot delete storage rows with SQL, as storage-api protects them', async () => {
    await expect(asPostgres(`delete from storage.objects where bucket_id = 'media'`)).rejects.toThrow(
      /Direct deletion from storage tables is not allowed/,
    );
    await expect(asPostgres(`delete from storage.buckets where id = 'trash'`)).rejects.toMatchObject({ code: '42501' });
  });

  it('keeps no membership of the service roles afterwards', async () => {
    const rows = await query<{ role: string }>(
      database.adminUrl,
      `select m.roleid::regrole::text as role from pg_auth_members m where m.member = 'postgres'::regrole
         and m.roleid::regrole::text like 'supabase\\_%'`,
    );
    expect(rows).toEqual([]);
  });
});
