import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { bootstrapDatabase, loadProjectConfig, PROJECT_ROOT, pushMigrations, startPostgres } from '@mediateca/stack';

/**
 * Writes supabase/schema.sql: every object supabase/migrations leaves in a database, each once, in its live
 * definition. The migrations are applied with `supabase db push` to a bare Postgres holding only what a new
 * hosted project holds (no stack servers, no seed), and the catalog is read before and after: the snapshot is
 * what the push added or changed. `--check` fails when the committed file is out of date instead.
 *
 * Why catalog queries and not pg_dump: the embedded Postgres ships no pg_dump, and a client of another major
 * refuses the server. The pg_get_*def functions are what pg_dump prints for functions, views, indexes,
 * constraints and triggers; the rest (columns, policies, grants, publication, buckets) is read from the
 * catalog tables. Everything is sorted by name, grants by grantee, so the file changes only with the schema.
 *
 * To compare two sets of migrations (e.g. before and after folding them), run it on each with
 * `--project=<a directory holding supabase/>` and `--out=<file>`, and diff the two files.
 */

const target = path.join(PROJECT_ROOT, 'supabase', 'schema.sql');

/** Schemas whose content is not schema: the CLI's migration history, and Postgres' own. */
const SKIPPED_SCHEMAS = `('pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations', '_local_stack')`;

/** One object: a sortable key ("function public.is_admin()") and its definition. */
type Blocks = Map<string, string>;

const notInExtension = (classid: string, oid: string) =>
  `not exists (select 1 from pg_depend d where d.classid = '${classid}'::regclass and d.objid = ${oid} and d.deptype = 'e')`;

const userNamespaces = `(select oid from pg_namespace where nspname not in ${SKIPPED_SCHEMAS} and nspname not like 'pg_temp%' and nspname not like 'pg_toast%')`;

/** An ACL as sorted grant lines, so two orders of the same grants read the same. */
const aclSql = (column: string) =>
  `coalesce((select string_agg(a::text, ' ' order by a::text) from unnest(${column}) a), '(default)')`;

async function collect(client: pg.Client): Promise<Blocks> {
  const blocks: Blocks = new Map();
  const add = (key: string, text: string) => {
    if (blocks.has(key)) throw new Error(`two catalog objects read as ${key}`);
    blocks.set(key, text);
  };
  const rows = async <T extends pg.QueryResultRow>(sql: string) => (await client.query<T>(sql)).rows;
  // Every name printed with its schema, whatever the role's search_path.
  await client.query(`set search_path = ''`);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'schema ' || quote_ident(n.nspname) as key,
           'owner ' || pg_get_userbyid(n.nspowner) || E'\\nacl ' || ${aclSql('n.nspacl')}
           || coalesce(E'\\ncomment ' || quote_literal(obj_description(n.oid, 'pg_namespace')), '') as text
      from pg_namespace n where n.oid in ${userNamespaces}`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'extension ' || e.extname as key, 'schema ' || e.extnamespace::regnamespace::text || ' version ' || e.extversion as text
      from pg_extension e`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'type ' || t.oid::regtype::text as key,
           case t.typtype
             when 'e' then 'enum (' || (select string_agg(quote_literal(e.enumlabel), ', ' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid) || ')'
             when 'd' then 'domain ' || format_type(t.typbasetype, t.typtypmod) || coalesce(' ' || (select string_agg(pg_get_constraintdef(c.oid), ' ' order by c.conname) from pg_constraint c where c.contypid = t.oid), '')
             when 'c' then 'composite (' || (select string_agg(quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod), ', ' order by a.attnum) from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped) || ')'
             else 'type ' || t.typtype::text end
           || E'\\nowner ' || pg_get_userbyid(t.typowner) || E'\\nacl ' || ${aclSql('t.typacl')}
           || coalesce(E'\\ncomment ' || quote_literal(obj_description(t.oid, 'pg_type')), '') as text
      from pg_type t
     where t.typnamespace in ${userNamespaces}
       and (t.typtype in ('e', 'd') or (t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c'))
       and ${notInExtension('pg_type', 't.oid')}`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select (case c.relkind when 'v' then 'view ' when 'm' then 'materialized view ' when 'S' then 'sequence '
                           when 'f' then 'foreign table ' else 'table ' end) || c.oid::regclass::text as key,
           'owner ' || pg_get_userbyid(c.relowner) || E'\\nacl ' || ${aclSql('c.relacl')}
           || case when c.relrowsecurity then E'\\nrow level security' else '' end
           || case when c.relforcerowsecurity then E'\\nforce row level security' else '' end
           || case when c.relpersistence = 'u' then E'\\nunlogged' else '' end
           || coalesce(E'\\noptions ' || array_to_string(c.reloptions, ', '), '')
           || case when c.relreplident <> 'd' then E'\\nreplica identity ' || c.relreplident::text else '' end
           || coalesce(E'\\ncomment ' || quote_literal(obj_description(c.oid, 'pg_class')), '')
           || coalesce((select string_agg(E'\\ncolumn ' || quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod)
                  || case when a.attnotnull then ' not null' else '' end
                  || case when a.attidentity <> '' then ' identity ' || a.attidentity::text else '' end
                  || case when a.attgenerated <> '' then ' generated (' || pg_get_expr(ad.adbin, ad.adrelid) || ')'
                          else coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '') end
                  || case when a.attcollation <> 0 and a.attcollation <> (select typcollation from pg_type where oid = a.atttypid)
                          then ' collate ' || a.attcollation::regcollation::text else '' end
                  || case when a.attacl is not null then ' acl ' || ${aclSql('a.attacl')} else '' end
                  || coalesce(' comment ' || quote_literal(col_description(c.oid, a.attnum)), ''),
                  '' order by a.attnum)
                from pg_attribute a left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
               where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and c.relkind <> 'S'), '')
           || case when c.relkind in ('v', 'm') then E'\\nas ' || pg_get_viewdef(c.oid) else '' end
           || case when c.relkind = 'S' then (select E'\\n' || format_type(s.seqtypid, null) || ' start ' || s.seqstart || ' increment ' || s.seqincrement
                   || ' min ' || s.seqmin || ' max ' || s.seqmax || ' cache ' || s.seqcache || case when s.seqcycle then ' cycle' else '' end
                   from pg_sequence s where s.seqrelid = c.oid) else '' end as text
      from pg_class c
     where c.relnamespace in ${userNamespaces} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
       and ${notInExtension('pg_class', 'c.oid')}`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'constraint ' || coalesce(c.conrelid::regclass::text, c.contypid::regtype::text) || ' ' || quote_ident(c.conname) as key,
           pg_get_constraintdef(c.oid) || case when c.condeferrable then ' deferrable' else '' end
           || coalesce(E'\\ncomment ' || quote_literal(obj_description(c.oid, 'pg_constraint')), '') as text
      from pg_constraint c
     where c.connamespace in ${userNamespaces} and c.conrelid <> 0
       and ${notInExtension('pg_class', 'c.conrelid')}`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'index ' || i.indexrelid::regclass::text as key, pg_get_indexdef(i.indexrelid) as text
      from pg_index i join pg_class c on c.oid = i.indexrelid
     where c.relnamespace in ${userNamespaces} and ${notInExtension('pg_class', 'i.indrelid')}`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'trigger ' || t.tgrelid::regclass::text || ' ' || quote_ident(t.tgname) as key,
           pg_get_triggerdef(t.oid) || case when t.tgenabled <> 'O' then E'\\nenabled ' || t.tgenabled::text else '' end as text
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where not t.tgisinternal and c.relnamespace in ${userNamespaces}`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'policy ' || p.polrelid::regclass::text || ' ' || quote_ident(p.polname) as key,
           (case when p.polpermissive then 'permissive' else 'restrictive' end)
           || ' for ' || (case p.polcmd when 'r' then 'select' when 'a' then 'insert' when 'w' then 'update' when 'd' then 'delete' else 'all' end)
           || ' to ' || (select string_agg(case when r = 0 then 'public' else pg_get_userbyid(r) end, ', ' order by 1) from unnest(p.polroles) r)
           || coalesce(E'\\nusing ' || pg_get_expr(p.polqual, p.polrelid), '')
           || coalesce(E'\\nwith check ' || pg_get_expr(p.polwithcheck, p.polrelid), '') as text
      from pg_policy p join pg_class c on c.oid = p.polrelid
     where c.relnamespace in ${userNamespaces}`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select (case p.prokind when 'p' then 'procedure ' when 'a' then 'aggregate ' else 'function ' end)
             || p.oid::regprocedure::text as key,
           case when p.prokind = 'a' then 'aggregate' else rtrim(pg_get_functiondef(p.oid), E'\\n') end
           || E'\\nowner ' || pg_get_userbyid(p.proowner) || E'\\nacl ' || ${aclSql('p.proacl')}
           || coalesce(E'\\ncomment ' || quote_literal(obj_description(p.oid, 'pg_proc')), '') as text
      from pg_proc p
     where p.pronamespace in ${userNamespaces} and ${notInExtension('pg_proc', 'p.oid')}`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'event trigger ' || quote_ident(e.evtname) as key,
           e.evtevent || ' ' || e.evtfoid::regprocedure::text || ' enabled ' || e.evtenabled::text
           || coalesce(' tags ' || array_to_string(e.evttags, ', '), '') as text
      from pg_event_trigger e`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'role ' || quote_ident(r.rolname) as key,
           concat_ws(' ', case when r.rolsuper then 'superuser' end, case when r.rolinherit then 'inherit' else 'noinherit' end,
                     case when r.rolcreaterole then 'createrole' end, case when r.rolcreatedb then 'createdb' end,
                     case when r.rolcanlogin then 'login' else 'nologin' end, case when r.rolreplication then 'replication' end,
                     case when r.rolbypassrls then 'bypassrls' end)
           || coalesce(E'\\nmember of ' || (select string_agg(m.roleid::regrole::text
                  || case when m.admin_option then ' with admin' else '' end, ', ' order by m.roleid::regrole::text)
                  from pg_auth_members m where m.member = r.oid), '')
           || coalesce((select string_agg(E'\\nset ' || s, '' order by s)
                  from pg_db_role_setting d, unnest(d.setconfig) s where d.setrole = r.oid), '')
           || coalesce(E'\\ncomment ' || quote_literal(shobj_description(r.oid, 'pg_authid')), '') as text
      from pg_roles r where r.rolname not like 'pg\\_%'`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'default privileges for ' || pg_get_userbyid(d.defaclrole) || coalesce(' in ' || d.defaclnamespace::regnamespace::text, '')
             || ' on ' || d.defaclobjtype::text as key,
           ${aclSql('d.defaclacl')} as text
      from pg_default_acl d`))
    add(r.key, r.text);

  for (const r of await rows<{ key: string; text: string }>(`
    select 'publication ' || quote_ident(p.pubname) as key,
           concat_ws(' ', case when p.puballtables then 'all tables' end, 'insert=' || p.pubinsert, 'update=' || p.pubupdate,
                     'delete=' || p.pubdelete, 'truncate=' || p.pubtruncate)
           || coalesce((select string_agg(E'\\ntable ' || t.schemaname || '.' || t.tablename
                  || coalesce(' (' || array_to_string(t.attnames, ', ') || ')', '') || coalesce(' where ' || t.rowfilter, ''),
                  '' order by t.schemaname, t.tablename)
                from pg_publication_tables t where t.pubname = p.pubname and not p.puballtables), '') as text
      from pg_publication p`))
    add(r.key, r.text);

  // Rows the migrations write (buckets, singleton settings), without the moment they were written.
  const tables = await rows<{ name: string }>(`
    select c.oid::regclass::text as name from pg_class c
     where c.relnamespace in ${userNamespaces} and c.relkind in ('r', 'p') and ${notInExtension('pg_class', 'c.oid')}
     order by 1`);
  for (const { name } of tables) {
    const columns = await rows<{ name: string }>(`
      select quote_ident(attname) as name from pg_attribute
       where attrelid = '${name}'::regclass and attnum > 0 and not attisdropped
         and atttypid not in ('timestamptz'::regtype, 'timestamp'::regtype, 'date'::regtype)
       order by attnum`);
    if (!columns.length) continue;
    const list = columns.map((c) => c.name).join(', ');
    // A few rows as they are; a generated table (the feed's 4,096 page bounds) as its count and digest.
    const [summary] = await rows<{ n: number; digest: string | null; text: string | null }>(`
      select count(*)::int as n, md5(string_agg(r::text, E'\\n' order by r::text)) as digest,
             case when count(*) <= 20 then string_agg(r::text, E'\\n' order by r::text) end as text
        from (select row(${list}) as r from ${name}) rows`);
    if (!summary || summary.n === 0) continue;
    add(`rows ${name}`, `(${list})\n${summary.text ?? `${summary.n} rows, md5 ${summary.digest}`}`);
  }
  return blocks;
}

/** What pushing supabase/migrations (or `migrationsDir`'s project) adds to a new project's database, as text. */
export async function schemaSnapshot(projectRoot = PROJECT_ROOT): Promise<string> {
  const config = loadProjectConfig(path.join(projectRoot, 'supabase'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-schema-'));
  const log = () => {};
  const database = await startPostgres({ dataDir, majorVersion: config.db.majorVersion, log });
  try {
    await bootstrapDatabase(database.adminUrl, log);
    const read = async () => {
      const client = new pg.Client({ connectionString: database.adminUrl });
      await client.connect();
      try {
        return await collect(client);
      } finally {
        await client.end();
      }
    };
    const before = await read();
    await pushMigrations({ projectRoot, postgresUrl: database.postgresUrl, includeSeed: false, log });
    const after = await read();
    const lines = [
      '-- Generated by `npm run gen:schema` from supabase/migrations (scripts/gen-schema.ts). Do not edit.',
      '-- Every object the migrations create or change, in its live definition, sorted by kind and name.',
    ];
    for (const key of [...after.keys()].sort()) {
      const text = after.get(key)!;
      if (before.get(key) === text) continue;
      lines.push('', `-- ${key}`, text);
    }
    for (const key of [...before.keys()].sort()) if (!after.has(key)) lines.push('', `-- ${key}`, 'dropped');
    return `${lines.join('\n')}\n`;
  } finally {
    await database.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const rootArg = process.argv.find((arg) => arg.startsWith('--project='));
  const outArg = process.argv.find((arg) => arg.startsWith('--out='));
  const generated = await schemaSnapshot(rootArg ? path.resolve(rootArg.slice('--project='.length)) : PROJECT_ROOT);
  if (process.argv.includes('--check')) {
    const committed = await readFile(target, 'utf8').catch(() => '');
    if (committed !== generated) {
      console.error('supabase/schema.sql is out of date: run `npm run gen:schema` and commit the result.');
      process.exit(1);
    }
    console.log('supabase/schema.sql is current.');
    return;
  }
  const out = outArg ? path.resolve(outArg.slice('--out='.length)) : target;
  await writeFile(out, generated);
  console.log(`wrote ${path.relative(PROJECT_ROOT, out)}`);
}

await main();
