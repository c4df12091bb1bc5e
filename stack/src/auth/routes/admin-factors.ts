import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { jsonResponse } from '../http.ts';
import { downgradeSessions, factorJson, factorsOf, ownedFactor } from '../mfa.ts';
import { targetUser } from './admin-users.ts';

/** `GET /admin/users/{id}/factors` and `DELETE /admin/users/{id}/factors/{factor_id}` (auth.admin.mfa). */
export function adminFactorRoutes(app: AuthApp, deps: AuthDeps) {
  app.get('/admin/users/:id/factors', async (c) => {
    const user = await targetUser(deps, c);
    const factors = (await factorsOf(deps.ctx.adminPool, [user.id])).get(user.id) ?? [];
    return jsonResponse(200, factors.map(factorJson));
  });

  app.delete('/admin/users/:id/factors/:factorId', async (c) => {
    const user = await targetUser(deps, c);
    const factor = await ownedFactor(deps.ctx.adminPool, user.id, c.req.param('factorId'));
    await deps.withTransaction(async (db) => {
      await downgradeSessions(db, factor);
      await db.query('delete from auth.mfa_factors where id = $1', [factor.id]);
    });
    return jsonResponse(200, factorJson(factor));
  });
}
