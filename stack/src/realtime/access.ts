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
 * statement per identity and table for all of them, prepared once per connection and table, and every table
 * of the batch in the same round trip. Checking row by row ran the policies' helpers (is_admin(), …) once per
 * row and identity, and planned every check afresh: a bulk tag of 20 files seen by 20 people was 800
 * statements; a round trip per table made each transaction wait for as many answers from a busy Postgres.
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

/** The changes of one slice to one table (same key), and the identities subscribed to them. */
export interface TableChanges {
  changes: CapturedChange[];
  identities: Identity[];
}

interface TableCatalog {
  rls: boolean | null;
  selectable: Record<string, string[]> | null;
  key_types: string[] | null;
}

/** What each table needs to know of the catalog, for all the tables of a slice in one statement. */
const CATALOG_SQL = `
  select (select c.relrowsecurity from pg_class c where c.oid = (t.v ->> 'rel')::oid) as rls,
         (select json_object_agg(r.role, coalesce((
            select array_agg(a.attname::text order by a.attnum) from pg_attribute a
             where a.attrelid = (t.v ->> 'rel')::oid and a.attnum > 0 and not a.attisdropped
               and has_column_privilege(r.role, a.attrelid, a.attnum, 'SELECT')), '{}'))
            from json_array_elements_text(t.v -> 'roles') as r(role)
           where exists (select 1 from pg_roles where rolname = r.role)) as selectable,
         (select array_agg(format_type(a.atttypid, a.atttypmod) order by k.n)
            from json_array_elements_text(t.v -> 'keys') with ordinality as k(name, n)
            join pg_attribute a on a.attrelid = (t.v ->> 'rel')::oid and a.attname = k.name) as key_types
    from json_array_elements($1::json) with ordinality as t(v, n)
   order by t.n`;

/** One table's part of the checks: which rows, which identities, with which statement. */
interface TableCheck {
  verdicts: AccessVerdict[];
  /** Indexes into the table's changes of the rows to select (inserted or updated, with their key). */
  checkedRows: number[];
  /** The identities whose check selects the rows (the others' verdicts follow from privileges alone). */
  checked: Identity[];
  query: ReturnType<typeof visibilityQuery>;
  /** The statement's arguments: one array literal per key column. */
  arrays: string[];
}

/** The identities to check, with the tables each one subscribes to. */
type IdentityChecks = Array<{ identity: Identity; plans: TableCheck[] }>;

/**
 * Connections one batch's checks are spread over, a share of the identities each: the checks of 20 people
 * are 20 statements per table, which one backend runs one after another on one core.
 */
export const CONNECTIONS_PER_BATCH = 2;
/** Fewer identities than this are checked on one connection (a second costs more than it saves). */
const IDENTITIES_TO_SPLIT = 4;

/**
 * Access to the changes of each table, for each table's identities: per table, one verdict per change, in
 * the same order. Two round trips whatever the number of tables: the catalog for all of them, then, on each
 * connection, one transaction (rolled back) in which each of its identities' settings are set once and its
 * tables' checks run.
 */
export async function evaluateAccess(pool: pg.Pool, tables: TableChanges[]): Promise<AccessVerdict[][]> {
  if (tables.length === 0) return [];
  const db = await checkOut(pool);
  try {
    const { rows: catalog } = await db.query<TableCatalog>(CATALOG_SQL, [
      JSON.stringify(
        tables.map(({ changes, identities }) => ({
          rel: changes[0]!.relationOid,
          keys: changes[0]!.primaryKey,
          roles: [...new Set(identities.map((identity) => identity.role))],
        })),
      ),
    ]);
    const plans = tables.map((table, index) => planTable(db, table, catalog[index]));
    const byIdentity = new Map<string, IdentityChecks[number]>();
    for (const plan of plans) {
      for (const identity of plan.checked) {
        const key = identityKey(identity);
        const entry = byIdentity.get(key) ?? { identity, plans: [] };
        entry.plans.push(plan);
        byIdentity.set(key, entry);
      }
    }
    const everyone = [...byIdentity.values()];
    const shares = everyone.length < IDENTITIES_TO_SPLIT ? 1 : CONNECTIONS_PER_BATCH;
    const share = (index: number) => everyone.filter((_, position) => position % shares === index);
    await Promise.all([
      runChecks(db, share(0)),
      ...Array.from({ length: shares - 1 }, async (_, index) => {
        const other = await checkOut(pool);
        try {
          await runChecks(other, share(index + 1));
        } finally {
          other.release(other.lost);
        }
      }),
    ]);
    return plans.map((plan) => plan.verdicts);
  } finally {
    db.release(db.lost);
  }
}

/** The checks of some identities on one connection, their answers recorded in their tables' verdicts. */
async function runChecks(db: pg.ClientBase, checks: IdentityChecks): Promise<void> {
  if (checks.length === 0) return;
  const prepared = preparedOn(db);
  const statements = ['begin'];
  const toPrepare = new Set<string>();
  const plans = new Set(checks.flatMap((check) => check.plans));
  for (const plan of plans) {
    if (!prepared.has(plan.query.name) && !toPrepare.has(plan.query.name)) {
      toPrepare.add(plan.query.name);
      statements.push(plan.query.prepare);
    }
  }
  // Each identity's settings once, then the checks of every table it subscribes to; where each answer is.
  const answers: Array<{ plan: TableCheck; identity: Identity; at: number }> = [];
  for (const { identity, plans: itsPlans } of checks) {
    statements.push(setConfigStatement(identitySettings(identity)));
    for (const plan of itsPlans) {
      answers.push({ plan, identity, at: statements.length });
      statements.push(`execute ${plan.query.name}(${plan.arrays.join(', ')})`);
    }
  }
  statements.push('rollback');
  try {
    const results = (await db.query(statements.join(';\n'))) as unknown as pg.QueryResult<{ i: string }>[];
    for (const name of toPrepare) prepared.add(name);
    for (const { plan, identity, at } of answers) markVisible(plan, identity, results[at]?.rows ?? []);
  } catch {
    // A policy that raises for one identity aborts the batch: check each alone, failing closed. The
    // statements may be prepared or not (or stale, after a change to a table): they are prepared afresh.
    await db.query('rollback').catch(() => {});
    for (const plan of plans) {
      await db.query(`deallocate ${plan.query.name}`).catch(() => {});
      prepared.delete(plan.query.name);
    }
    for (const { plan, identity } of answers) {
      markVisible(plan, identity, await visibleAlone(db, plan.query.inline(plan.arrays), identity));
    }
  }
}

/**
 * One table's verdicts as far as the catalog decides them (the columns each role may read; without RLS, a
 * row is visible to any role that may read its key, as Realtime does not re-select it), and the checks left.
 */
function planTable(db: pg.ClientBase, { changes, identities }: TableChanges, catalog?: TableCatalog): TableCheck {
  const first = changes[0]!;
  const rlsEnabled = catalog?.rls ?? true;
  const roles = [...new Set(identities.map((identity) => identity.role))];
  const selectableColumns = new Map<string, Set<string>>(
    roles.map((role) => [role, new Set(catalog?.selectable?.[role] ?? [])]),
  );
  const verdicts = changes.map(() => ({ rlsEnabled, selectableColumns, visible: new Map<string, boolean>() }));
  const keyColumns = first.primaryKey;
  const keyTypes = catalog?.key_types ?? [];
  const table = `${quoteIdent(first.schema)}.${quoteIdent(first.table)}`;
  const query = visibilityQuery(table, keyColumns, keyTypes);
  // DELETE is never checked.
  const checkedRows = changes.flatMap((change, index) =>
    change.type !== 'DELETE' && change.recordText && keyColumns.length > 0 ? [index] : [],
  );
  const plan: TableCheck = { verdicts, checkedRows, checked: [], query, arrays: [] };
  if (checkedRows.length === 0 || keyTypes.length !== keyColumns.length) return plan;

  for (const identity of identities) {
    const columns = selectableColumns.get(identity.role)!;
    const canReadKey = keyColumns.every((column) => columns.has(column));
    for (const index of checkedRows) verdicts[index]!.visible.set(identityKey(identity), canReadKey && !rlsEnabled);
    if (canReadKey && rlsEnabled) plan.checked.push(identity);
  }
  plan.arrays = keyColumns.map((column) =>
    db.escapeLiteral(arrayLiteral(checkedRows.map((index) => changes[index]!.recordText![column] ?? ''))),
  );
  return plan;
}

/** Records an identity's answer: the 1-based positions (among the checked rows) of the rows it may select. */
function markVisible(plan: TableCheck, identity: Identity, positions: Array<{ i: string }>): void {
  const visibleRows = new Set(positions.map((row) => plan.checkedRows[Number(row.i) - 1]));
  const key = identityKey(identity);
  for (const index of plan.checkedRows) plan.verdicts[index]!.visible.set(key, visibleRows.has(index));
}

/** The role and claims an identity's check runs with. */
const identitySettings = (identity: Identity) => ({
  role: identity.role,
  'request.jwt.claims': JSON.stringify(identity.claims),
});

/** One identity's check on its own: nothing is visible to it if the check fails. */
async function visibleAlone(db: pg.ClientBase, sql: string, identity: Identity): Promise<Array<{ i: string }>> {
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
