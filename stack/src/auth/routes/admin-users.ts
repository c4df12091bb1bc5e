import type { AuthApp, AuthContext } from '../app.ts';
import { UUID, type AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';
import { findUserById, listUsers, userJsonById, usersJson, type UserRow } from '../users.ts';
import { createUserFromBody, updateUserFromBody } from '../user-writes.ts';

/** The admin users API (`auth.admin.*`), for service_role / supabase_admin tokens only. */
export function adminUserRoutes(app: AuthApp, deps: AuthDeps) {
  const pool = deps.ctx.adminPool;

  app.use('/admin/*', async (c, next) => {
    await deps.requireAdmin(c.env.incoming);
    await next();
  });

  app.post('/admin/users', async (c) => {
    const user = await createUserFromBody(deps, await readJsonBody(c.req.raw), { admin: true });
    return jsonResponse(200, await userJsonById(pool, user.id));
  });

  app.get('/admin/users', async (c) => {
    const page = parsePageParam(c.req.query('page') ?? null, 1);
    const perPage = parsePageParam(c.req.query('per_page') ?? null, 50);
    const { users, total } = await listUsers(pool, perPage, (page - 1) * perPage);
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const links = [];
    if (page < lastPage) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
    links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
    return jsonResponse(
      200,
      { users: await usersJson(pool, users), aud: 'authenticated' },
      { 'X-Total-Count': String(total), Link: links.join(', ') },
    );
  });

  app.get('/admin/users/:id', async (c) => {
    const user = await targetUser(deps, c);
    return jsonResponse(200, await userJsonById(pool, user.id));
  });

  app.put('/admin/users/:id', async (c) => {
    const user = await targetUser(deps, c);
    return jsonResponse(200, await updateUserFromBody(deps, user, await readJsonBody(c.req.raw), { admin: true }));
  });

  app.delete('/admin/users/:id', async (c) => {
    const user = await targetUser(deps, c);
    const body = await readJsonBody(c.req.raw);
    if (body.should_soft_delete === true) {
      await deps.withTransaction(async (db) => {
        await db.query('delete from auth.sessions where user_id = $1', [user.id]);
        await db.query('delete from auth.identities where user_id = $1', [user.id]);
        await db.query(
          `update auth.users set deleted_at = now(), updated_at = now(), email = null, phone = null,
             encrypted_password = '', raw_user_meta_data = '{}' where id = $1`,
          [user.id],
        );
      });
    } else {
      await pool.query('delete from auth.users where id = $1', [user.id]);
    }
    return jsonResponse(200, {});
  });

  app.on(['PUT', 'DELETE', 'PATCH'], '/admin/users', () => methodNotAllowed());
  app.on(['POST', 'PATCH'], '/admin/users/:id', () => methodNotAllowed());
}

const methodNotAllowed = () => {
  throw new AuthError(405, 'method_not_allowed', 'Method not allowed');
};

/** The `{id}` of an admin user route, as GoTrue's `loadUser` middleware checks it. */
export async function targetUser(deps: AuthDeps, c: AuthContext): Promise<UserRow> {
  const id = c.req.param('id') ?? '';
  if (!UUID.test(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
  const user = await findUserById(deps.ctx.adminPool, id);
  if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
  return user;
}

function parsePageParam(value: string | null, fallback: number): number {
  if (value === null || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) {
    throw new AuthError(400, 'validation_failed', 'Bad Pagination Parameters');
  }
  return parsed;
}
