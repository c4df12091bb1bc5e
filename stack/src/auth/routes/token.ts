import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { AuthError, jsonResponse, readJsonBody } from '../http.ts';
import { passwordGrant, refreshGrant } from '../grants.ts';
import * as disabled from '../disabled-features.ts';

/** `POST /token`: password and refresh-token grants; the others as GoTrue answers them when switched off. */
export function tokenRoutes(app: AuthApp, deps: AuthDeps) {
  app.post('/token', async (c) => {
    const body = await readJsonBody(c.req.raw);
    const grant = c.req.query('grant_type');
    // GoTrue checks the grant type first (an unknown one is a 400, not counted), then the limit.
    if (['password', 'refresh_token', 'id_token', 'pkce'].includes(grant ?? '')) deps.limit('token', c.env.incoming);
    if (grant === 'password') return jsonResponse(200, await passwordGrant(deps, c.env.incoming, body));
    if (grant === 'refresh_token') return jsonResponse(200, await refreshGrant(deps, body));
    if (grant === 'id_token') disabled.idTokenGrant(body);
    if (grant === 'web3') disabled.web3Grant();
    throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
  });
}
