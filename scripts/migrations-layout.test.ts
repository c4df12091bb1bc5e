import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layout supabase/README.md promises: one migration per concern, each function, trigger and policy
 * created in exactly one file (its live definition), and the README's table naming every migration. A
 * `create or replace` in a second file, or an `alter policy` away from the policy's own file, is a second
 * definition: the reader of the first file would see a definition that is not the one in force.
 */

const root = path.resolve(import.meta.dirname, '..');
const migrationsDir = path.join(root, 'supabase', 'migrations');

/** The SQL with comments, dollar-quoted bodies and literals blanked out, lower-cased but for quoted identifiers. */
export function stripSql(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const rest = sql.slice(i);
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
      continue;
    }
    if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
      out += ' ';
      continue;
    }
    const dollar = /^\$([A-Za-z_]\w*)?\$/.exec(rest);
    if (dollar) {
      const end = sql.indexOf(dollar[0], i + dollar[0].length);
      i = end === -1 ? sql.length : end + dollar[0].length;
      out += " '' ";
      continue;
    }
    if (sql[i] === '"') {
      const end = sql.indexOf('"', i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop;
      continue;
    }
    if (sql[i] === "'") {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === "'" && sql[j + 1] !== "'")) j += sql[j] === "'" ? 2 : 1;
      i = j + 1;
      out += " '' ";
      continue;
    }
    out += sql[i]!.toLowerCase();
    i += 1;
  }
  return out;
}

const IDENT = String.raw`(?:"[^"]+"|[a-z_][\w$]*)`;
const QUALIFIED = String.raw`${IDENT}(?:\s*\.\s*${IDENT})?`;

/** Names a relation or function in one spelling: schema-qualified (public by default), no quotes or spaces. */
function qualify(name: string): string {
  const parts = name.split(/\s*\.\s*(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((part) => part.trim().replace(/^"|"$/g, ''));
  return parts.length === 1 ? `public.${parts[0]}` : parts.join('.');
}

export interface Definition {
  kind: 'function' | 'trigger' | 'policy';
  /** function: schema.name; trigger and policy: name on schema.table. */
  name: string;
  file: string;
}

/** Every function, trigger and policy a migration creates (or replaces, or alters, for policies). */
export function definitionsIn(file: string, sql: string): Definition[] {
  const text = stripSql(sql);
  const found: Definition[] = [];
  const functions = new RegExp(
    String.raw`\bcreate\s+(?:or\s+replace\s+)?(?:function|procedure)\s+(${QUALIFIED})\s*\(`,
    'g',
  );
  for (const match of text.matchAll(functions)) found.push({ kind: 'function', name: qualify(match[1]!), file });
  const triggers = new RegExp(
    String.raw`\bcreate\s+(?:or\s+replace\s+)?(?:constraint\s+)?trigger\s+(${IDENT})[\s\S]*?\bon\s+(${QUALIFIED})`,
    'g',
  );
  for (const match of text.matchAll(triggers)) {
    found.push({ kind: 'trigger', name: `${match[1]!.replace(/"/g, '')} on ${qualify(match[2]!)}`, file });
  }
  // Policy names are quoted identifiers, which stripSql keeps (only string literals are blanked).
  const policies = new RegExp(String.raw`\b(?:create|alter)\s+policy\s+(${IDENT})\s+on\s+(${QUALIFIED})`, 'g');
  for (const match of text.matchAll(policies)) {
    found.push({ kind: 'policy', name: `${match[1]!.replace(/"/g, '')} on ${qualify(match[2]!)}`, file });
  }
  return found;
}

const migrationFiles = () =>
  readdirSync(migrationsDir)
    .filter((file) => file.endsWith('.sql'))
    .sort();

/** Each name defined in more than one file, with the files. */
export function definedInTwoFiles(definitions: Definition[]): string[] {
  const files = new Map<string, Set<string>>();
  for (const d of definitions) {
    const key = `${d.kind} ${d.name}`;
    files.set(key, (files.get(key) ?? new Set()).add(d.file));
  }
  return [...files]
    .filter(([, where]) => where.size > 1)
    .map(([key, where]) => `${key}: ${[...where].join(', ')}`)
    .sort();
}

describe('the migration parser', () => {
  it('finds functions, triggers and policies, and ignores comments and bodies', () => {
    const sql = `
      -- create function public.not_this()
      create or replace function private.f(p uuid) returns void language sql as $$ create function public.g() $$;
      create function "public"."Quoted"() returns int language sql as $body$ select 1 $body$;
      create trigger t_x after insert on public.files for each row execute function private.f();
      create constraint trigger t_y after update on files deferrable for each row execute function private.f();
      create policy "Admins read; it's fine" on storage.objects for select using (true);
      alter policy "Admins read; it's fine" on storage.objects using (false);
      comment on function private.f(uuid) is 'create function public.h()';`;
    expect(definitionsIn('a.sql', sql).map((d) => `${d.kind} ${d.name}`)).toEqual([
      'function private.f',
      'function public.Quoted',
      'trigger t_x on public.files',
      'trigger t_y on public.files',
      "policy Admins read; it's fine on storage.objects",
      "policy Admins read; it's fine on storage.objects",
    ]);
  });

  it('reports a name defined in two files, and an alter policy away from its create', () => {
    const a = definitionsIn(
      'a.sql',
      `create function private.f() returns int language sql as $$ select 1 $$;
      create policy "p" on public.files using (true);`,
    );
    const b = definitionsIn(
      'b.sql',
      `create or replace function private.f() returns int language sql as $$ select 2 $$;
      alter policy "p" on public.files using (false);`,
    );
    expect(definedInTwoFiles([...a, ...b])).toEqual([
      'function private.f: a.sql, b.sql',
      'policy p on public.files: a.sql, b.sql',
    ]);
  });
});

describe('supabase/migrations', () => {
  it('creates every function, trigger and policy in exactly one file', () => {
    const definitions = migrationFiles().flatMap((file) =>
      definitionsIn(file, readFileSync(path.join(migrationsDir, file), 'utf8')),
    );
    expect(definitions.length).toBeGreaterThan(100);
    expect(definedInTwoFiles(definitions)).toEqual([]);
  });

  it('are the files the documentation and the migrations name', () => {
    // A migration named in prose: `20261124120300_files.sql`, `…120300_files.sql` or `files.sql`. Other .sql
    // files the documents name (the seed, the snapshot, a backup's dump, the stack's bootstrap) are not.
    const others = new Set(['seed.sql', 'schema.sql', 'database.sql']);
    const onDisk = migrationFiles();
    const sources = [
      'README.md',
      'supabase/README.md',
      ...readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.md'))
        .map((file) => path.join('docs', file)),
      ...onDisk.map((file) => path.join('supabase', 'migrations', file)),
    ];
    const dangling: string[] = [];
    for (const source of sources) {
      const text = readFileSync(path.join(root, source), 'utf8');
      for (const [name] of text.matchAll(/(?:…\d*_?)?\b[a-z0-9_]+\.sql\b/g)) {
        if (others.has(name)) continue;
        const bare = name.replace(/^…\d*_?/, '').replace(/^\d{14}_/, '');
        const exists = /^\d{14}_/.test(name) ? onDisk.includes(name) : onDisk.some((file) => file.endsWith(`_${bare}`));
        if (!exists) dangling.push(`${source}: ${name}`);
      }
    }
    expect(dangling).toEqual([]);
  });

  it("are each listed in supabase/README.md's migration table, and the table lists no other", () => {
    const readme = readFileSync(path.join(root, 'supabase', 'README.md'), 'utf8');
    const start = readme.indexOf('| migration');
    expect(start, 'the README has a table whose first column is "migration"').toBeGreaterThan(-1);
    const rows = readme
      .slice(start)
      .split('\n')
      .slice(2)
      .filter((line, index, lines) => lines.slice(0, index + 1).every((l) => l.startsWith('|')));
    const listed = rows.map((row) => /^\|\s*`([^`]+)`/.exec(row)?.[1]).filter((name): name is string => !!name);
    const onDisk = migrationFiles().map((file) => file.replace(/\.sql$/, ''));
    expect(listed.sort()).toEqual(onDisk);
  });
});
