import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import pg from 'pg';
import { WebSocketServer, type RawData } from 'ws';
import type { MountedService, ServiceContext } from '../service.ts';
import { mountHono } from '../http/mount.ts';
import { ChangeStream } from './changes.ts';
import { DECISIONS_AT_ONCE } from './ordered-delivery.ts';
import { decideCommit } from './dispatch.ts';
import { CONNECTIONS_PER_BATCH } from './access.ts';
import { onFrame } from './frames.ts';
import { restApi } from './rest.ts';
import { connectionProblem, Sessions, type Client } from './session.ts';

/**
 * Supabase Realtime at /realtime/v1 for @supabase/realtime-js as
 * shipped in supabase-js 2.x: Phoenix channels over WebSocket (serializer 2.0.0 arrays and binary
 * broadcasts, 1.0.0 objects), postgres_changes with each change checked against each subscriber's
 * privileges and RLS in Postgres (access.ts) before delivery, broadcast between clients (WebSocket and
 * REST), and presence. Private channels (`config.private`) are authorized by RLS on realtime.messages
 * as Realtime does it (authorization.ts). Changes come from a logical replication stream (changes.ts
 * explains why not triggers).
 *
 * The parts: session.ts (sockets, channels, sending), join.ts, frames.ts (what a socket sends), dispatch.ts
 * (fan-out of presence, broadcasts and changes) and rest.ts (the REST broadcast API).
 */

/** realtime-js heartbeats every 25 s; a socket silent for this long is gone. */
const IDLE_TIMEOUT_MS = 75_000;

function rejectUpgrade(socket: Duplex, message: string) {
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function createRealtimeService(ctx: ServiceContext): Promise<MountedService> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  const sessions = new Sessions(ctx);
  // Realtime's own connections for deciding who sees each change, as hosted Realtime holds its own: a burst of
  // changes waits for these rather than for the ones Auth and Storage answer requests with, and the checks
  // each connection prepares (access.ts) stay on these few backends instead of spreading over the pool. Room
  // for every batch decided at once with all its connections: a batch holding one never waits on another.
  const checks = new pg.Pool({ connectionString: ctx.adminDbUrl, max: DECISIONS_AT_ONCE * CONNECTIONS_PER_BATCH });
  checks.on('error', (error) => ctx.log(`realtime checks pool: ${error.message}`));

  const stream = new ChangeStream({
    adminDbUrl: ctx.adminDbUrl,
    adminPool: ctx.adminPool,
    decide: (changes) => decideCommit(sessions, checks, changes),
    onInterrupted: () => sessions.failChangeChannels(),
    log: ctx.log,
  });
  await stream.start();
  const changesStreaming = () => stream.streaming;

  const reaper = setInterval(() => {
    const cutoff = Date.now() - IDLE_TIMEOUT_MS;
    for (const client of sessions.clients) if (client.lastSeen < cutoff) client.socket.terminate();
  }, 15_000);
  reaper.unref();

  const handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer, subpath: string) => {
    const url = new URL(subpath, 'http://realtime.local');
    if (url.pathname !== '/websocket' && url.pathname !== '/websocket/') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const header = req.headers['x-api-key'];
    const apikey = url.searchParams.get('apikey') ?? (typeof header === 'string' ? header : null);
    if (!apikey) return rejectUpgrade(socket, 'API key is missing');
    sessions.verify(apikey).then(
      () => {
        wss.handleUpgrade(req, socket, head, (ws) => {
          const client: Client = {
            socket: ws,
            vsn: url.searchParams.get('vsn') === '1.0.0' ? '1.0.0' : '2.0.0',
            apikey,
            channels: new Map(),
            lastSeen: Date.now(),
            queue: Promise.resolve(),
          };
          sessions.clients.add(client);
          ws.on('message', (data: RawData, isBinary: boolean) =>
            onFrame(sessions, client, data, isBinary, changesStreaming),
          );
          ws.on('close', () => sessions.disconnect(client));
          ws.on('error', () => ws.terminate());
        });
      },
      (error: unknown) => rejectUpgrade(socket, connectionProblem(error)),
    );
  };

  return mountHono(restApi(sessions), {
    handleUpgrade,
    async close() {
      clearInterval(reaper);
      for (const client of sessions.clients) client.socket.terminate();
      wss.close();
      await stream.stop();
      await checks.end();
    },
  });
}
