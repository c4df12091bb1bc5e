import type pg from 'pg';
import type { Claims } from '../jwt.ts';
import type { CapturedChange } from './changes.ts';
import { checkOut, setConfigStatement } from '../http/transaction.ts';

/**
 * What each subscriber may see of one change, decided in Postgres as Supabase Realtime's apply_rls does:
 * columns the subscriber's role lacks SELECT on are removed; for INSERT/UPDATE on a table with RLS
 * enabled the row is selected by primary key as that subscriber (`role` + `request.jwt.claims`, local to
 * a transaction that is rolled back) and delivered only if visible. DELETE is never RLS-checked.
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

    // One round trip for every identity: a simple-protocol batch inside a transaction that is rolled back.
    const table = `${quoteIdent(change.schema)}.${quoteIdent(change.table)}`;
    const where = change.primaryKey
      .map((column) => `${quoteIdent(column)} = ${db.escapeLiteral(record[column] ?? '')}`)
      .join(' and ');
    const statements = ['begin'];
    for (const identity of checked) {
      statements.push(
        setConfigStatement(identitySettings(identity)),
        `select exists (select 1 from ${table} where ${where}) as visible`,
      );
    }
    statements.push('rollback');
    try {
      const results = (await db.query(statements.join(';\n'))) as unknown as pg.QueryResult<{ visible: boolean }>[];
      checked.forEach((identity, index) => {
        visible.set(identityKey(identity), results[2 + index * 2]?.rows[0]?.visible === true);
      });
    } catch {
      // A policy that raises for one identity aborts the batch: check each alone, failing closed.
      await db.query('rollback').catch(() => {});
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
