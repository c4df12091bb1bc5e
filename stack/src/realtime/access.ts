import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Claims } from '../jwt.ts';
import type { CapturedChange } from './changes.ts';
import { checkOut, setConfigStatement } from '../http/transaction.ts';

/**
 * What each subscriber may see of one change, decided in Postgres as Supabase Realtime's apply_rls does:
 * columns the subscriber's role lacks SELECT on are removed; for INSERT/UPDATE on a table with RLS
 * enabled the row is selected by primary key as that subscriber (`role` + `request.jwt.claims`, local to
 * a transaction that is rolled back; the select prepared once per connection and table) and delivered only
 * if visible. DELETE is never RLS-checked.
 * Subscribers sharing role and claims share one check.
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
 * `select exists (…)` for one table's row by primary key, with the key values as parameters (their types
 * inferred from the columns). Named by table and key so a connection keeps one per table.
 */
function visibilityStatement(change: CapturedChange, table: string): { name: string; prepare: string } {
  const where = change.primaryKey.map((column, index) => `${quoteIdent(column)} = $${index + 1}`).join(' and ');
  const keyTag = createHash('sha1').update(change.primaryKey.join('\u0000')).digest('hex').slice(0, 8);
  const name = `realtime_visible_${change.relationOid}_${keyTag}`;
  return { name, prepare: `prepare ${name} as select exists (select 1 from ${table} where ${where}) as visible` };
}

export async function evaluateAccess(
  pool: pg.Pool,
  change: CapturedChange,
  identities: Identity[],
): Promise<AccessVerdict> {
  const roles = [...new Set(identities.map((identity) => identity.role))];
  const db = await checkOut(pool);
  try {
    const { rows } = await db.query<{ rls: boolean | null; selectable: Record<string, string[]> | null }>(
      `select (select relrowsecurity from pg_class where oid = $1) as rls,
              (select json_object_agg(r.role, coalesce((
                 select array_agg(a.attname::text order by a.attnum) from pg_attribute a
                  where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
                    and has_column_privilege(r.role, a.attrelid, a.attnum, 'SELECT')), '{}'))
                 from unnest($2::text[]) as r(role)
                where exists (select 1 from pg_roles where rolname = r.role)) as selectable`,
      [change.relationOid, roles],
    );
    const rlsEnabled = rows[0]?.rls ?? true;
    const selectableColumns = new Map<string, Set<string>>(
      roles.map((role) => [role, new Set(rows[0]?.selectable?.[role] ?? [])]),
    );
    const visible = new Map<string, boolean>();
    const record = change.recordText;
    if (change.type === 'DELETE' || !record || change.primaryKey.length === 0) {
      return { rlsEnabled, selectableColumns, visible };
    }
    const checked: Identity[] = [];
    for (const identity of identities) {
      const key = identityKey(identity);
      if (visible.has(key)) continue;
      const columns = selectableColumns.get(identity.role)!;
      const canReadKey = change.primaryKey.every((column) => columns.has(column));
      // Without RLS the row is visible to any role that may read its key; Realtime does not re-select it.
      visible.set(key, canReadKey && !rlsEnabled);
      if (canReadKey && rlsEnabled) checked.push(identity);
    }
    if (checked.length === 0) return { rlsEnabled, selectableColumns, visible };

    // One round trip for every identity, as apply_rls does it: the row's select is prepared once (and kept on
    // the connection, so its generic plan is reused by later changes to the table) and executed per identity,
    // inside a transaction that is rolled back. Planning each check afresh was most of its cost.
    const table = `${quoteIdent(change.schema)}.${quoteIdent(change.table)}`;
    const statement = visibilityStatement(change, table);
    const prepared = preparedOn(db);
    const mustPrepare = !prepared.has(statement.name);
    const keyValues = change.primaryKey.map((column) => db.escapeLiteral(record[column] ?? '')).join(', ');
    const statements = ['begin', ...(mustPrepare ? [statement.prepare] : [])];
    for (const identity of checked) {
      statements.push(setConfigStatement(identitySettings(identity)), `execute ${statement.name}(${keyValues})`);
    }
    statements.push('rollback');
    const firstCheck = mustPrepare ? 3 : 2;
    try {
      const results = (await db.query(statements.join(';\n'))) as unknown as pg.QueryResult<{ visible: boolean }>[];
      prepared.add(statement.name);
      checked.forEach((identity, index) => {
        visible.set(identityKey(identity), results[firstCheck + index * 2]?.rows[0]?.visible === true);
      });
    } catch {
      // A policy that raises for one identity aborts the batch: check each alone, failing closed. The
      // statement may be prepared or not (or stale, after a change to the table): it is prepared afresh.
      await db.query('rollback').catch(() => {});
      await db.query(`deallocate ${statement.name}`).catch(() => {});
      prepared.delete(statement.name);
      const where = change.primaryKey
        .map((column) => `${quoteIdent(column)} = ${db.escapeLiteral(record[column] ?? '')}`)
        .join(' and ');
      for (const identity of checked) {
        visible.set(identityKey(identity), await visibleAlone(db, table, where, identity));
      }
    }
    return { rlsEnabled, selectableColumns, visible };
  } finally {
    db.release(db.lost);
  }
}

/** The role and claims an identity's check runs with. */
const identitySettings = (identity: Identity) => ({
  role: identity.role,
  'request.jwt.claims': JSON.stringify(identity.claims),
});

async function visibleAlone(db: pg.PoolClient, table: string, where: string, identity: Identity): Promise<boolean> {
  try {
    await db.query('begin');
    await db.query(setConfigStatement(identitySettings(identity)));
    const { rows } = await db.query<{ visible: boolean }>(
      `select exists (select 1 from ${table} where ${where}) as visible`,
    );
    return rows[0]?.visible === true;
  } catch {
    return false;
  } finally {
    await db.query('rollback').catch(() => {});
  }
}
