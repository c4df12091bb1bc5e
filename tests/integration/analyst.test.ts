import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ANALYST_LOCAL_PASSWORD, ANALYST_LOCAL_USER } from '@mediateca/stack';
import { adminDb, stackInfo } from '../helpers/clients.ts';
import { seedCollections } from '../helpers/seed.ts';

/**
 * The read-only analyst login (`analyst_local`, a member of the migrations' `analyst` role) as an analyst's
 * psql or BI tool meets it: every analytics view answers with the numbers the tables hold, and writes,
 * DDL, auth secrets, storage internals and runaway queries are refused.
 */

const VIEWS = [
  'files_by_month',
  'publication_state',
  'tag_usage',
  'tag_category_coverage',
  'untagged_files',
  'collections',
  'missing_translations',
  'academy_videos',
  'academy_members',
  'academy_private_grants',
  'uploads_per_day',
  'refreshed',
  'share_links_by_state',
  'share_link_usage',
  'share_link_usage_by_month',
  'rights_coverage',
  'embedded_metadata',
];

function analystUrl(): string {
  const url = new URL(stackInfo().dbUrl);
  url.username = ANALYST_LOCAL_USER;
  url.password = ANALYST_LOCAL_PASSWORD;
  return url.toString();
}

async function connectAsAnalyst(): Promise<pg.Client> {
  const db = new pg.Client({ connectionString: analystUrl() });
  await db.connect();
  return db;
}

/** The SQLSTATE a statement fails with, or 'ok'. */
async function sqlState(db: pg.Client, sql: string): Promise<string> {
  try {
    await db.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

let analyst: pg.Client;
let admin: pg.Client;
const untranslatedFile = crypto.randomUUID();

beforeAll(async () => {
  analyst = await connectAsAnalyst();
  admin = await adminDb();
  // A file whose English name is a copy of the Spanish one, which missing_translations must list.
  await admin.query(
    `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, size, extension)
     values ($1, 'copia.jpg', $2, 'copia.jpg', 'Terraza al atardecer', 'Terraza al atardecer', 1234, 'jpg')`,
    [untranslatedFile, `analyst-test/${untranslatedFile}.jpg`],
  );
});

afterAll(async () => {
  await admin.query('delete from public.files where id = $1', [untranslatedFile]);
  await analyst.end();
  await admin.end();
});

const one = async <T>(db: pg.Client, sql: string) => (await db.query<{ v: T }>(sql)).rows[0]!.v;

describe('analyst_local reads', () => {
  it('runs with read-only transactions, a statement timeout and no way to become another role', async () => {
    expect(await one(analyst, `select current_setting('default_transaction_read_only') as v`)).toBe('on');
    expect(await one(analyst, `select current_setting('statement_timeout') as v`)).toBe('10s');
    expect(await one(analyst, `select current_setting('work_mem') as v`)).toBe('32MB');
    expect(await one(analyst, `select pg_has_role('analyst', 'member')::text as v`)).toBe('true');
    for (const role of ['postgres', 'service_role', 'authenticated', 'supabase_admin']) {
      expect(await sqlState(analyst, `set role ${role}`)).toBe('42501');
    }
  });

  it('answers every analytics view', async () => {
    const listed = await admin.query<{ table_name: string }>(
      `select relname as table_name from pg_class
        where relnamespace = 'analytics'::regnamespace and relkind in ('v', 'm') order by 1`,
    );
    expect(listed.rows.map((r) => r.table_name)).toEqual([...VIEWS].sort());
    for (const view of VIEWS) {
      expect(await sqlState(analyst, `select * from analytics.${view} limit 5`), view).toBe('ok');
    }
  });

  it('refreshes the materialized tag coverage by a job queued with each change of tags, to what the tables hold', async () => {
    const truth = `select c.id::text as category_id,
        (select count(distinct ft.file_id) from public.file_tags ft join public.tags t on t.id = ft.tag_id
          where t.category_id = c.id)::int as tagged
      from public.tag_categories c order by 1`;
    const coverage = `select category_id::text, tagged_files::int as tagged from analytics.tag_category_coverage order by 1`;
    await admin.query(`delete from public.server_jobs where kind = 'refresh_analytics'`);
    const [tag] = (await admin.query<{ id: string }>('select id from public.tags limit 1')).rows;
    const [file] = (
      await admin.query<{ id: string }>(
        `select f.id from public.files f where not exists (select from public.file_tags t where t.file_id = f.id) limit 1`,
      )
    ).rows;
    await admin.query('insert into public.file_tags (file_id, tag_id) values ($1, $2)', [file!.id, tag!.id]);
    try {
      const [job] = (
        await admin.query<{ state: string; due_in: number }>(
          `select state, extract(epoch from run_after - now())::int as due_in from public.server_jobs
            where kind = 'refresh_analytics'`,
        )
      ).rows;
      expect(job).toMatchObject({ state: 'pending' });
      expect(job!.due_in).toBeLessThanOrEqual(60);
      // What the job runs (run-jobs calls it with the service role).
      await admin.query(`select set_config('request.jwt.claims', '{"role":"service_role"}', false)`);
      await admin.query('select public.refresh_analytics()');
      expect((await analyst.query(coverage)).rows).toEqual((await admin.query(truth)).rows);
      expect(
        await one(
          analyst,
          `select count(*)::int as v from analytics.refreshed where refreshed_at > now() - interval '1 minute'`,
        ),
      ).toBe(1);
    } finally {
      await admin.query(`select set_config('request.jwt.claims', '', false)`);
      await admin.query('delete from public.file_tags where file_id = $1 and tag_id = $2', [file!.id, tag!.id]);
    }
  });

  it('counts what the tables hold, across every staff member and collection (RLS bypassed on purpose)', async () => {
    const truth = async (sql: string) => Number(await one<string>(admin, sql));
    const view = async (sql: string) => Number(await one<string>(analyst, sql));
    const files = await truth('select count(*) as v from public.files');
    expect(files).toBeGreaterThan(0);
    expect(await view('select sum(files) as v from analytics.files_by_month')).toBe(files);
    expect(await view('select sum(total_bytes) as v from analytics.files_by_month')).toBe(
      await truth('select sum(size) as v from public.files'),
    );
    expect(await view('select sum(files) as v from analytics.uploads_per_day')).toBe(files);
    expect(await view('select sum(files) as v from analytics.publication_state')).toBe(files);
    expect(await view(`select files as v from analytics.publication_state where state = 'published'`)).toBe(
      await truth(
        'select count(*) as v from public.files where published and not processing and processing_error is null',
      ),
    );
    expect(await view('select sum(files) as v from analytics.tag_usage')).toBe(
      await truth('select count(*) as v from public.file_tags'),
    );
    expect(await view('select count(*) as v from analytics.tag_usage')).toBe(
      await truth('select count(*) as v from public.tags'),
    );
    expect(await view('select count(*) as v from analytics.untagged_files')).toBe(
      await truth(
        'select count(*) as v from public.files f where not exists (select from public.file_tags t where t.file_id = f.id)',
      ),
    );
    // Other test files add files to the seed collections on the same stack: compare with the table itself.
    expect(
      await view(`select files as v from analytics.collections where collection_id = '${seedCollections.agencias}'
                   and not is_public`),
    ).toBe(
      await truth(
        `select count(*) as v from public.collection_files where collection_id = '${seedCollections.agencias}'`,
      ),
    );
    expect(await view('select sum(likes) as v from analytics.academy_videos')).toBe(
      await truth('select count(*) as v from public.academy_likes'),
    );
    expect(await view('select sum(members) as v from analytics.academy_members')).toBe(
      await truth('select count(*) as v from public.academy_users'),
    );
    expect(await view('select count(*) as v from analytics.academy_private_grants')).toBe(
      await truth('select count(*) as v from public.academy_categories where is_private'),
    );
    const missing = await analyst.query<{ issue: string }>(
      `select issue from analytics.missing_translations where item_type = 'file' and item_id = $1`,
      [untranslatedFile],
    );
    expect(missing.rows).toEqual([{ issue: 'name_en_same_as_name_es' }]);
  });
});

describe('analytics.rights_coverage', () => {
  it('counts files and bytes per rights state (Madrid days), published or not', async () => {
    const coverage = async () => {
      const { rows } = await analyst.query<{ state: string; published: boolean; files: string; total_bytes: string }>(
        'select state, published, files, total_bytes from analytics.rights_coverage',
      );
      return new Map<string, [number, number]>(
        rows.map((row) => [`${row.state}/${row.published}`, [Number(row.files), Number(row.total_bytes)]]),
      );
    };
    const before = await coverage();
    // Relative to the database's Madrid day, the one the view reads.
    const cases: Array<[state: string, published: boolean, expireSql: string, creator: string]> = [
      ['caducados', false, `(now() at time zone 'Europe/Madrid')::date - 1`, ''],
      ['caducan en 30 días', true, `(now() at time zone 'Europe/Madrid')::date`, ''],
      ['caducan en 30 días', false, `(now() at time zone 'Europe/Madrid')::date + 29`, ''],
      ['caducan en 90 días', false, `(now() at time zone 'Europe/Madrid')::date + 30`, ''],
      ['vigentes', false, `(now() at time zone 'Europe/Madrid')::date + 90`, ''],
      ['vigentes', true, 'null', 'José Ñúñez'],
    ];
    const ids: string[] = [];
    try {
      for (const [, published, expireSql, creator] of cases) {
        const id = crypto.randomUUID();
        ids.push(id);
        await admin.query(
          `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, size, extension,
                                     processing, published, rights_expire_on, rights_creator)
           values ($1, 'r.jpg', $2, 'r.jpg', 'Derechos', 'Rights', 1000, 'jpg', false, $3, ${expireSql}, $4)`,
          [id, `analyst-test/${id}.jpg`, published, creator],
        );
      }
      const after = await coverage();
      const delta = (key: string) => {
        const [files, bytes] = after.get(key) ?? [0, 0];
        const [filesBefore, bytesBefore] = before.get(key) ?? [0, 0];
        return [files - filesBefore, bytes - bytesBefore];
      };
      // 'sin datos' moves with whatever other tests upload meanwhile; these states only with the rows above.
      expect(delta('caducados/false')).toEqual([1, 1000]);
      expect(delta('caducan en 30 días/true')).toEqual([1, 1000]);
      expect(delta('caducan en 30 días/false')).toEqual([1, 1000]);
      expect(delta('caducan en 90 días/false')).toEqual([1, 1000]);
      expect(delta('vigentes/false')).toEqual([1, 1000]);
      expect(delta('vigentes/true')).toEqual([1, 1000]);
      expect(
        [...after.keys()].every((key) =>
          /^(sin datos|vigentes|caducan en (30|90) días|caducados)\/(true|false)$/.test(key),
        ),
      ).toBe(true);
    } finally {
      await admin.query('delete from public.files where id = any($1)', [ids]);
    }
  });
});

describe('analytics.embedded_metadata', () => {
  it('shows what post-processing read from a file, with whether it has a GPS position but never the position', async () => {
    const located = crypto.randomUUID();
    const plain = crypto.randomUUID();
    try {
      for (const id of [located, plain]) {
        await admin.query(
          `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, size, extension,
                                     processing, published)
           values ($1, 'm.jpg', $2, 'm.jpg', 'Metadatos', 'Metadata', 1000, 'jpg', false, $3)`,
          [id, `analyst-test/${id}.jpg`, id === located],
        );
      }
      // What post-processing stores (the server's write; the test writes it as the database owner).
      await admin.query(`update public.files set captured_at = '2024-07-14T17:05:33Z' where id = $1`, [located]);
      await admin.query(
        `insert into public.file_metadata (file_id, camera_make, camera_model, lens, orientation, gps_latitude,
                                           gps_longitude, creator, credit, copyright, usage_terms, headline,
                                           caption, keywords)
         values ($1, 'Canon', 'Canon EOS R5', 'RF24-70mm F2.8 L IS USM', 6, 39.5696, -3.7038, 'José Ñúñez',
                 'Agencia Ñandú', '© 2024 José Ñúñez', 'Solo web', 'Piscina al atardecer', 'Pie de foto',
                 array['hotel', 'piscina'])`,
        [located],
      );
      await admin.query(
        `insert into public.file_metadata (file_id, read_error) values ($1, 'EXIF: the block is damaged and gave no field')`,
        [plain],
      );

      const { rows, fields } = await analyst.query(
        'select * from analytics.embedded_metadata where file_id = any($1) order by published desc',
        [[located, plain]],
      );
      expect(fields.map((field) => field.name)).toEqual([
        'file_id',
        'published',
        'file_type',
        'captured_at',
        'camera_make',
        'camera_model',
        'lens',
        'orientation',
        'creator',
        'credit',
        'copyright',
        'usage_terms',
        'headline',
        'keywords',
        'has_gps',
        'read_error',
        'read_at',
      ]);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({
        file_id: located,
        published: true,
        file_type: 'jpg',
        camera_make: 'Canon',
        camera_model: 'Canon EOS R5',
        lens: 'RF24-70mm F2.8 L IS USM',
        orientation: 6,
        creator: 'José Ñúñez',
        credit: 'Agencia Ñandú',
        copyright: '© 2024 José Ñúñez',
        usage_terms: 'Solo web',
        headline: 'Piscina al atardecer',
        keywords: ['hotel', 'piscina'],
        has_gps: true,
        read_error: null,
      });
      expect((rows[0].captured_at as Date).toISOString()).toBe('2024-07-14T17:05:33.000Z');
      expect(rows[0].read_at).toBeInstanceOf(Date);
      expect(rows[1]).toMatchObject({
        file_id: plain,
        published: false,
        captured_at: null,
        camera_make: null,
        keywords: [],
        has_gps: false,
        read_error: 'EXIF: the block is damaged and gave no field',
      });

      // No column of the view holds the position, whatever it is called, and the table itself stays closed.
      const columns = await admin.query<{ name: string }>(
        `select attname as name from pg_attribute
          where attrelid = 'analytics.embedded_metadata'::regclass and attnum > 0 and not attisdropped`,
      );
      expect(columns.rows.map((column) => column.name).filter((name) => /lat|lon|gps_/.test(name))).toEqual([]);
      expect(await sqlState(analyst, 'select gps_latitude from analytics.embedded_metadata')).toBe('42703');
      expect(await sqlState(analyst, 'select gps_latitude, gps_longitude from public.file_metadata')).toBe('42501');
    } finally {
      await admin.query('delete from public.files where id = any($1)', [[located, plain]]);
    }
  });
});

describe('analyst_local is refused', () => {
  it('every write and DDL in its read-only transactions', async () => {
    expect(await sqlState(analyst, `delete from public.files`)).toBe('25006');
    expect(await sqlState(analyst, `create table public.analyst_scratch (id int)`)).toBe('25006');
  });

  it('every write and DDL after turning read-only off, by privileges alone', async () => {
    const db = await connectAsAnalyst();
    try {
      await db.query('set default_transaction_read_only = off');
      expect(await one(db, `select current_setting('transaction_read_only') as v`)).toBe('off');
      const attempts = {
        insert: `insert into public.tags (category_id, name_es, name_en)
                 select id, 'x', 'x' from public.tag_categories limit 1`,
        update: `update public.files set published = true`,
        delete: `delete from public.collections`,
        truncate: `truncate public.file_tags`,
        'update a view': `update analytics.untagged_files set name_es = 'x'`,
        'delete through a view': `delete from analytics.untagged_files`,
        'create table': `create table public.analyst_scratch (id int)`,
        'create view': `create view analytics.analyst_scratch as select 1`,
        'drop view': `drop view analytics.files_by_month`,
        'alter table': `alter table public.files add column analyst_note text`,
        'create schema': `create schema analyst_scratch`,
        'create function': `create function public.analyst_scratch() returns int language sql as 'select 1'`,
        'call a write RPC': `select public.delete_files(array[gen_random_uuid()])`,
      };
      const results: Record<string, string> = {};
      for (const [name, sql] of Object.entries(attempts)) results[name] = await sqlState(db, sql);
      // 42501 (permission denied) for each: no attempt fails for another reason that could hide a missing check.
      expect(results).toEqual(Object.fromEntries(Object.keys(attempts).map((name) => [name, '42501'])));
    } finally {
      await db.end();
    }
  });

  it('every SECURITY DEFINER function (none is executable), so no RPC writes on its behalf', async () => {
    const executable = await admin.query<{ name: string }>(
      `select n.nspname || '.' || p.proname as name
         from pg_catalog.pg_proc p
         join pg_catalog.pg_namespace n on n.oid = p.pronamespace
        where p.prosecdef and n.nspname not in ('pg_catalog', 'information_schema')
          and has_function_privilege($1, p.oid, 'execute')`,
      [ANALYST_LOCAL_USER],
    );
    expect(executable.rows).toEqual([]);
  });

  it('auth secrets, storage internals, job tables and the raw tables', async () => {
    for (const sql of [
      'select encrypted_password from auth.users',
      'select token from auth.refresh_tokens',
      'select * from auth.sessions',
      'select * from storage.objects',
      'select * from public.trash_jobs',
      'select * from public.files',
      'select * from public.academy_users',
    ]) {
      expect(await sqlState(analyst, sql), sql).toBe('42501');
    }
  });

  it('a query past the statement timeout, which is cancelled', async () => {
    // 57014 is query_canceled: the 10 s statement_timeout stopped the 11 s sleep.
    expect(await sqlState(analyst, 'select pg_sleep(11)')).toBe('57014');
  }, 30_000);
});
