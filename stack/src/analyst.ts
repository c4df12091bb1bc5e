import pg from 'pg';
import { ANALYST_LOCAL_PASSWORD, ANALYST_LOCAL_USER, DB_NAME } from './config.ts';

/**
 * The local analyst login: a LOGIN member of the `analyst` group role that a migration creates (a
 * migration holds no passwords, so members are made outside it, here locally and by hand on hosted).
 * Role settings are not inherited, so the member gets a copy of the group's (read-only transactions,
 * timeouts), refreshed on every start in case a migration changed them. Returns the login's URL, or
 * null when the project's migrations define no `analyst` role.
 */
export async function ensureAnalystLogin(adminUrl: string, port: number): Promise<string | null> {
  const db = new pg.Client({ connectionString: adminUrl });
  await db.connect();
  try {
    const exists = await db.query(`select 1 from pg_catalog.pg_roles where rolname = 'analyst'`);
    if (exists.rowCount === 0) return null;
    const group = await db.query<{ setting: string }>(
      `select unnest(s.setconfig) as setting
         from pg_catalog.pg_db_role_setting s
        where s.setrole = 'analyst'::regrole and s.setdatabase = 0`,
    );

    const user = pg.escapeIdentifier(ANALYST_LOCAL_USER);
    await db.query('begin');
    const member = await db.query(`select 1 from pg_catalog.pg_roles where rolname = $1`, [ANALYST_LOCAL_USER]);
    if (member.rowCount === 0) {
      await db.query(
        `create role ${user} login inherit nocreatedb nocreaterole noreplication nobypassrls in role analyst`,
      );
    }
    await db.query(`alter role ${user} password ${pg.escapeLiteral(ANALYST_LOCAL_PASSWORD)}`);
    await db.query(`alter role ${user} reset all`);
    for (const { setting } of group.rows) {
      const [name, ...value] = setting.split('=');
      await db.query(`alter role ${user} set ${pg.escapeIdentifier(name!)} = ${pg.escapeLiteral(value.join('='))}`);
    }
    await db.query('commit');
  } catch (error) {
    await db.query('rollback').catch(() => {});
    throw error;
  } finally {
    await db.end();
  }
  return `postgresql://${ANALYST_LOCAL_USER}:${ANALYST_LOCAL_PASSWORD}@127.0.0.1:${port}/${DB_NAME}`;
}
