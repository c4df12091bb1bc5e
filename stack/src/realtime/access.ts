import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Claims } from '../jwt.ts';
import type { CapturedChange } from './changes.ts';
import { checkOut, setConfigStatement } from '../http/transaction.ts';

/**
 * What each subscriber may see of changes to one table, decided in Postgres as Supabase Realtime's apply_rls
 * does: columns the subscriber's role lacks SELECT on are removed; for INSERT/UPDATE on a table with RLS
 * enabled the rows are selected by primary key as that subscriber (`role` + `request.jwt.claims`, local to a
 * transaction that is rolled back) and delivered only where visible. DELETE is never RLS-checked.
 * Subscribers sharing role and claims share one check.
 *
 * The changed rows of a batch (one transaction, or one slice of a large one) are checked together: one
 * statement per identity for all of them, prepared once per connection and table. Checking row by row ran
 * the policies' helpers (is_admin(), …) once per row and identity, and planned every check afresh: a bulk tag
 * of 20 files seen by 20 people was 800 statements.
 */

export interface Identity {
  role: string;
  claims: Claims;
}

export interface AccessVerdict {
  rlsEnabled: boolean;
  /** Per role: the columns it may select, in table order. */
  selectableColumns: Map<string, Set<string>>;
  /** Per identity key: whether the changed row is visible under RLS (only asked for INSERT/UPDATE). */
  visible: Map<string, boolean>;
}

export const identityKey = (identity: Identity) => `${identity.role}\u0000${JSON.stringify(identity.claims)}`;

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** An array literal of the values' text forms, for `unnest($n::type[])`. */
const arrayLiteral = (values: string[]) =>
  `{${values.map((value) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;

/** The visibility checks each pooled connection has prepared, by statement name. */
const preparedByConnection = new WeakMap<pg.ClientBase, Set<string>>();

function preparedOn(db: pg.ClientBase): Set<string> {
  let prepared = preparedByConnection.get(db);
  if (!prepared) {
    prepared = new Set();
    preparedByConnection.set(db, prepared);
  }
  return prepared;
}

/**
 * Which of the given keys (one array per key column, in step) name rows the caller may select: their
 * 1-based positions. Named by table, key columns and their types, so a connection keeps one per table.
 */
function visibilityQuery(table: string, keyColumns: string[], keyTypes: string[]) {
  const keys = keyColumns.map((_, index) => `k${index + 1}`);
  const match = keyColumns.map((column, index) => `t.${quoteIdent(column)} = k.${keys[index]}`).join(' and ');
  const body = (arrays: string[]) =>
    `select k.i from unnest(${arrays.map((array, index) => `${array}::${keyTypes[index]}[]`).join(', ')})` +
    ` with ordinality as k(${keys.join(', ')}, i) where exists (select 1 from ${table} t where ${match})`;
  const tag = createHash('sha1')
    .update(`${table}\u0000${keyColumns.join('\u0000')}\u0000${keyTypes.join('\u0000')}`)
    .digest('hex')
    .slice(0, 12);
  const name = `realtime_visible_${tag}`;
  return {
    name,
    prepare: `prepare ${name} as ${body(keys.map((_, index) => `$${index + 1}`))}`,
    inline: body,
  };
}

/**
 * Access to each of `changes` (all to the same table, in order) for each of `identities`: one verdict per
 * change, in the same order.
 */
export async function evaluateAccess(
  pool: pg.Pool,
  changes: CapturedChange[],
  identities: Identity[],
): Promise<AccessVerdict[]> {
  const [first] = changes;
  if (!first) return [];
  const roles = [...new Set(identities.map((identity) => identity.role))];
  const db = await checkOut(pool);
  try {
    const { rows } = await db.query<{
      rls: boolean | null;
      selectable: Record<string, string[]> | null;
      key_types: string[] | null;
    }>(
      `select (select relrowsecurity from pg_class where oid = $1) as rls,
              (select json_object_agg(r.role, coalesce((
                 select array_agg(a.attname::text order by a.attnum) from pg_attribute a
                  where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
                    and has_column_privilege(r.role, a.attrelid, a.attnum, 'SELECT')), '{}'))
                 from unnest($2::text[]) as r(role)
                where exists (select 1 from pg_roles where rolname = r.role)) as selectable,
              (select array_agg(format_type(a.atttypid, a.atttypmod) order by k.n)
                 from unnest($3::text[]) with ordinality as k(name, n)
                 join pg_attribute a on a.attrelid = $1 and a.attname = k.name) as key_types`,
      [first.relationOid, roles, first.primaryKey],
    );
    const rlsEnabled = rows[0]?.rls ?? true;
    const selectableColumns = new Map<string, Set<string>>(
      roles.map((role) => [role, new Set(rows[0]?.selectable?.[role] ?? [])]),
    );
    const verdicts = changes.map(() => ({ rlsEnabled, selectableColumns, visible: new Map<string, boolean>() }));
    const keyColumns = first.primaryKey;
    const keyTypes = rows[0]?.key_types ?? [];
    // Rows to check: inserted or updated, with their key (DELETE is never checked).
    const checkedRows = changes.flatMap((change, index) =>
      change.type !== 'DELETE' && change.recordText && keyColumns.length > 0 ? [index] : [],
    );
    if (checkedRows.length === 0 || keyTypes.length !== keyColumns.length) return verdicts;

    const checked: Identity[] = [];
    const seen = new Set<string>();
    for (const identity of identities) {
      const key = identityKey(identity);
      if (seen.has(key)) continue;
      seen.add(key);
      const columns = selectableColumns.get(identity.role)!;
      const canReadKey = keyColumns.every((column) => columns.has(column));
      // Without RLS the row is visible to any role that may read its key; Realtime does not re-select it.
      for (const index of checkedRows) verdicts[index]!.visible.set(key, canReadKey && !rlsEnabled);
      if (canReadKey && rlsEnabled) checked.push(identity);
    }
    if (checked.length === 0) return verdicts;

    const table = `${quoteIdent(first.schema)}.${quoteIdent(first.table)}`;
    const query = visibilityQuery(table, keyColumns, keyTypes);
    const arrays = keyColumns.map((column) =>
      db.escapeLiteral(arrayLiteral(checkedRows.map((index) => changes[index]!.recordText![column] ?? ''))),
    );
    const markVisible = (identity: Identity, positions: Array<{ i: string }>) => {
      const visibleRows = new Set(positions.map((row) => checkedRows[Number(row.i) - 1]));
      for (const index of checkedRows) verdicts[index]!.visible.set(identityKey(identity), visibleRows.has(index));
    };

    const prepared = preparedOn(db);
    const mustPrepare = !prepared.has(query.name);
    const statements = ['begin', ...(mustPrepare ? [query.prepare] : [])];
    for (const identity of checked) {
      statements.push(setConfigStatement(identitySettings(identity)), `execute ${query.name}(${arrays.join(', ')})`);
    }
    statements.push('rollback');
    const firstCheck = mustPrepare ? 3 : 2;
    try {
      const results = (await db.query(statements.join(';\n'))) as unknown as pg.QueryResult<{ i: string }>[];
      prepared.add(query.name);
      checked.forEach((identity, index) => markVisible(identity, results[firstCheck + index * 2]?.rows ?? []));
    } catch {
      // A policy that raises for one identity aborts the batch: check each alone, failing closed. The
      // statement may be prepared or not (or stale, after a change to the table): it is prepared afresh.
      await db.query('rollback').catch(() => {});
      await db.query(`deallocate ${query.name}`).catch(() => {});
      prepared.delete(query.name);
      for (const identity of checked) {
        markVisible(identity, await visibleAlone(db, query.inline(arrays), identity));
      }
    }
    return verdicts;
  } finally {
    db.release(db.lost);
  }
}

/** The role and claims an identity's check runs with. */
const identitySettings = (identity: Identity) => ({
  role: identity.role,
  'request.jwt.claims': JSON.stringify(identity.claims),
});

/** One identity's check on its own: nothing is visible to it if the check fails. */
async function visibleAlone(db: pg.PoolClient, sql: string, identity: Identity): Promise<Array<{ i: string }>> {
  try {
    await db.query('begin');
    await db.query(setConfigStatement(identitySettings(identity)));
    return (await db.query<{ i: string }>(sql)).rows;
  } catch {
    return [];
  } finally {
    await db.query('rollback').catch(() => {});
  }
}
