import { Hono, type Context } from 'hono';
import { AuthError, errorResponse } from './http.ts';
import type { NodeEnv } from '../http/mount.ts';

/**
 * The Hono app every auth route registers on. Routes see a Fetch `Request`, and the raw Node request in
 * `c.env.incoming` for what Fetch hides (the socket's address, which rate limits and sessions record).
 */
export type AuthEnv = NodeEnv;
export type AuthApp = Hono<AuthEnv>;
export type AuthContext = Context<AuthEnv>;

export function createAuthApp(log: (message: string) => void): AuthApp {
  // GoTrue (chi) answers /user and /user/ alike.
  const app = new Hono<AuthEnv>({ strict: false });
  app.onError((error, c) => {
    if (error instanceof AuthError) return errorResponse(c.req.raw.headers, error);
    log(`unexpected error: ${error.stack ?? String(error)}`);
    return errorResponse(
      c.req.raw.headers,
      new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'),
    );
  });
  app.notFound((c) =>
    errorResponse(
      c.req.raw.headers,
      new AuthError(404, 'not_found', `${c.req.method} ${c.req.path} is not supported by the local Auth server`),
    ),
  );
  return app;
}
