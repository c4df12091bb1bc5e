import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { postgresDb } from '../helpers/clients.ts';

/**
 * docs/database-writes.md lists, per table, every trigger in the order Postgres fires it. The list is only
 * worth reading while it is true, so this compares it with pg_trigger: a trigger added, dropped, renamed or
 * re-timed without the document following fails here.
 */

const DOC = new URL('../../docs/database-writes.md', import.meta.url);
const TABLES = ['files', 'file_tags', 'collection_files', 'tags', 'tag_categories', 'collections'];

interface ListedTrigger {
  name: string;
  /** e.g. 'before insert, update · row' */
  fires: string;
}

/** The document's rows: under each "## `public.<table>`" heading, a table whose first two cells are name and firing. */
function documentedTriggers(markdown: string): Map<string, ListedTrigger[]> {
  const byTable = new Map<string, ListedTrigger[]>();
  let table: string | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^## `public\.(\w+)`/.exec(line);
    if (heading) {
      table = heading[1]!;
      byTable.set(table, []);
      continue;
    }
    if (line.startsWith('## ')) table = undefined;
    const row = /^\|\s*\d+\s*\|\s*`(\w+)`\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (table && row) byTable.get(table)!.push({ name: row[1]!, fires: row[2]! });
  }
  return byTable;
}

/** pg_trigger's tgtype bits, spelled as the document spells them. */
function firing(type: number): { phase: number; fires: string } {
  const row = (type & 1) !== 0;
  const before = (type & 2) !== 0;
  const events = [
    [4, 'insert'],
    [16, 'update'],
    [8, 'delete'],
    [32, 'truncate'],
  ]
    .filter(([bit]) => (type & (bit as number)) !== 0)
    .map(([, name]) => name);
  // Postgres fires BEFORE statement, BEFORE row, AFTER row, AFTER statement; within one, by trigger name.
  const phase = before ? (row ? 1 : 0) : row ? 2 : 3;
  return { phase, fires: `${before ? 'before' : 'after'} ${events.join(', ')} · ${row ? 'row' : 'statement'}` };
}

describe('docs/database-writes.md', () => {
  it('lists every trigger of the library tables in firing order, as the database has them', async () => {
    const listed = documentedTriggers(readFileSync(DOC, 'utf8'));
    const db = await postgresDb();
    try {
      const { rows } = await db.query<{ table_name: string; name: string; type: number }>(
        `select c.relname as table_name, t.tgname as name, t.tgtype::int as type
           from pg_catalog.pg_trigger t
           join pg_catalog.pg_class c on c.oid = t.tgrelid
           join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relname = any($1) and not t.tgisinternal`,
        [TABLES],
      );
      for (const table of TABLES) {
        const actual = rows
          .filter((row) => row.table_name === table)
          .map((row) => ({ name: row.name, ...firing(row.type) }))
          .sort((a, b) => a.phase - b.phase || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
          .map(({ name, fires }) => ({ name, fires }));
        expect({ table, triggers: listed.get(table) ?? [] }).toEqual({ table, triggers: actual });
      }
    } finally {
      await db.end();
    }
  });
});
