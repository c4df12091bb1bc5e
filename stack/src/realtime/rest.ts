import { Hono } from 'hono';
import type { Claims } from '../jwt.ts';
import { readBody } from '../http/body.ts';
import { errorHandler, type NodeContext, type NodeEnv } from '../http/mount.ts';
import { bearerToken } from '../jwt.ts';
import { canWrite } from './authorization.ts';
import { relayBroadcast } from './dispatch.ts';
import type { UserBroadcast } from './protocol.ts';
import { connectionProblem, type Sessions } from './session.ts';

/**
 * Realtime's REST API: POST /api/broadcast {messages:[…]} and POST /api/broadcast/{topic}/events/{event},
 * answered 202. Errors are Realtime's `{message}` bodies.
 */

const MAX_REST_BODY_BYTES = 3 * 1024 * 1024;

class RestError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 413 | 500,
    message: string,
  ) {
    super(message);
  }
}

async function callerClaims(sessions: Sessions, c: NodeContext): Promise<Claims> {
  const apikey = c.req.header('apikey');
  const token = bearerToken(c.req.header('authorization')) ?? apikey ?? null;
  if (!token) throw new RestError(401, 'API key is missing');
  try {
    return await sessions.verify(token);
  } catch (error) {
    throw new RestError(401, connectionProblem(error));
  }
}

const readRestBody = (c: NodeContext) =>
  readBody(c.env.incoming, { limit: MAX_REST_BODY_BYTES, tooLarge: () => new RestError(413, 'Payload Too Large') });

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new RestError(400, (error as Error).message);
  }
}

/** Like Realtime's REST API: a private message the caller may not write is dropped, the answer stays 202. */
async function deliver(sessions: Sessions, claims: Claims, broadcasts: UserBroadcast[]) {
  const identity = { role: claims.role as string, claims };
  for (const broadcast of broadcasts) {
    const name = broadcast.topic.replace(/^realtime:/, '');
    if (broadcast.private && !(await canWrite(sessions.ctx.adminPool, identity, name, 'broadcast'))) continue;
    relayBroadcast(sessions, null, broadcast, true);
  }
}

export function restApi(sessions: Sessions): Hono<NodeEnv> {
  const app = new Hono<NodeEnv>();

  app.post('/api/broadcast', async (c) => {
    const claims = await callerClaims(sessions, c);
    const parsed = parseJson(await readRestBody(c)) as { messages?: unknown } | null;
    if (!Array.isArray(parsed?.messages)) throw new RestError(400, '`messages` must be a list');
    const broadcasts = (parsed.messages as Array<Record<string, unknown>>).map((item): UserBroadcast => {
      if (typeof item?.topic !== 'string' || typeof item.event !== 'string') {
        throw new RestError(400, 'each message needs a `topic` and an `event`');
      }
      return {
        topic: `realtime:${item.topic}`,
        event: item.event,
        payload: item.payload ?? {},
        binary: false,
        private: item.private === true,
      };
    });
    await deliver(sessions, claims, broadcasts);
    return c.body(null, 202, { 'Content-Length': '0' });
  });

  app.post('/api/broadcast/:topic/events/:event', async (c) => {
    const claims = await callerClaims(sessions, c);
    const body = await readRestBody(c);
    const binary = !/json/i.test(c.req.header('content-type') ?? 'application/json');
    await deliver(sessions, claims, [
      {
        topic: `realtime:${c.req.param('topic')}`,
        event: c.req.param('event'),
        payload: binary ? body : parseJson(body),
        binary,
        private: c.req.query('private') === 'true',
      },
    ]);
    return c.body(null, 202, { 'Content-Length': '0' });
  });

  app.all('/api/broadcast', (c) => c.json({ message: 'Method not allowed' }, 405));
  app.all('/api/broadcast/:topic/events/:event', (c) => c.json({ message: 'Method not allowed' }, 405));
  app.notFound((c) => c.json({ message: 'Not found' }, 404));
  app.onError(
    errorHandler((error, c) => {
      if (error instanceof RestError) return c.json({ message: error.message }, error.status);
      sessions.ctx.log(`realtime REST failed: ${error.message}`);
      return c.json({ message: 'Internal error' }, 500);
    }),
  );
  return app;
}
