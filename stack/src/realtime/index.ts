import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import type { MountedService, ServiceContext } from '../service.ts';
import { verifyJwt, isExpiredError, type Claims } from '../jwt.ts';
import { ChangeStream, type CapturedChange } from './changes.ts';
import { matchesFilter, parseFilter, type Filter } from './filters.ts';

/**
 * Supabase Realtime's postgres_changes over Phoenix channels (LOCAL_STACK_CONTRACT.md section 6), for
 * @supabase/realtime-js as shipped in supabase-js 2.x (serializer 2.0.0 array frames, 1.0.0 objects).
 * Each change is checked against each subscriber's RLS in Postgres, as that subscriber, before delivery.
 * Broadcast between clients of a topic is relayed too; presence is acknowledged but not tracked.
 */

type Frame = [string | null, string | null, string, string, Record<string, unknown>];

interface Binding {
  id: number;
  params: Record<string, unknown>;
  event: string;
  schema: string;
  table: string;
  filter: Filter | null;
}

interface Channel {
  topic: string;
  joinRef: string | null;
  bindings: Binding[];
  claims: Claims;
  role: string;
  broadcastSelf: boolean;
  expiryTimer?: NodeJS.Timeout;
}

interface Client {
  socket: WebSocket;
  vsn: '1.0.0' | '2.0.0';
  apikeyClaims: Claims;
  apikey: string;
  channels: Map<string, Channel>;
}

/** A client whose outgoing buffer grows past this is too slow: it is dropped, not waited for. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export async function createRealtimeService(ctx: ServiceContext): Promise<MountedService> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  const clients = new Set<Client>();
  let nextBindingId = 1;
  const rlsEnabled = new Map<number, boolean>();
  const publishedTables = async () => {
    const { rows } = await ctx.adminPool.query<{ schemaname: string; tablename: string }>(
      `select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime'`,
    );
    return new Set(rows.map((r) => `${r.schemaname}.${r.tablename}`));
  };

  const encode = (client: Client, frame: Frame) =>
    client.vsn === '1.0.0'
      ? JSON.stringify({ join_ref: frame[0], ref: frame[1], topic: frame[2], event: frame[3], payload: frame[4] })
      : JSON.stringify(frame);

  const send = (client: Client, frame: Frame) => {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      ctx.log('dropping a client that is not reading its messages');
      client.socket.terminate();
      return;
    }
    client.socket.send(encode(client, frame));
  };

  const verify = async (token: string): Promise<Claims> => {
    const claims = await verifyJwt(token, ctx.jwtSecret);
    if (typeof claims.role !== 'string' || typeof claims.exp !== 'number') {
      throw new Error('Fields `role` and `exp` are required in JWT');
    }
    if (!API_ROLES.has(claims.role)) throw new Error(`role "${claims.role}" is not allowed`);
    return claims;
  };

  const closeChannel = (client: Client, channel: Channel, message: string) => {
    send(client, [
      null,
      null,
      channel.topic,
      'system',
      { extension: 'postgres_changes', status: 'error', message, channel: channel.topic.replace(/^realtime:/, '') },
    ]);
    send(client, [channel.joinRef, null, channel.topic, 'phx_close', {}]);
    clearTimeout(channel.expiryTimer);
    client.channels.delete(channel.topic);
  };

  const armExpiry = (client: Client, channel: Channel) => {
    clearTimeout(channel.expiryTimer);
    if (typeof channel.claims.exp !== 'number') return;
    const ms = channel.claims.exp * 1000 - Date.now();
    channel.expiryTimer = setTimeout(
      () => closeChannel(client, channel, 'Token has expired'),
      Math.max(0, Math.min(ms, 2 ** 31 - 1)),
    );
    channel.expiryTimer.unref();
  };

  const join = async (client: Client, frame: Frame) => {
    const [joinRef, ref, topic, , payload] = frame;
    const config = (payload.config ?? {}) as Record<string, unknown>;
    const token = typeof payload.access_token === 'string' ? payload.access_token : client.apikey;
    let claims: Claims;
    try {
      claims = await verify(token);
    } catch (error) {
      send(client, [
        joinRef,
        ref,
        topic,
        'phx_reply',
        {
          status: 'error',
          response: { reason: isExpiredError(error) ? 'Token has expired' : (error as Error).message },
        },
      ]);
      return;
    }
    const requested = Array.isArray(config.postgres_changes)
      ? (config.postgres_changes as Record<string, unknown>[])
      : [];
    const bindings: Binding[] = [];
    const published = requested.length > 0 ? await publishedTables() : new Set<string>();
    const problems: string[] = [];
    for (const params of requested) {
      const schema = typeof params.schema === 'string' ? params.schema : 'public';
      const table = typeof params.table === 'string' ? params.table : '*';
      const event =
        typeof params.event === 'string' && ['INSERT', 'UPDATE', 'DELETE'].includes(params.event.toUpperCase())
          ? params.event.toUpperCase()
          : '*';
      let filter: Filter | null = null;
      if (typeof params.filter === 'string' && params.filter) {
        try {
          filter = parseFilter(params.filter);
        } catch (error) {
          problems.push(`Error parsing \`filter\` params: ${(error as Error).message}`);
        }
      }
      const exists =
        table === '*' ? [...published].some((t) => t.startsWith(`${schema}.`)) : published.has(`${schema}.${table}`);
      if (!exists)
        problems.push(
          `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [${JSON.stringify(params)}]`,
        );
      bindings.push({ id: nextBindingId++, params, event, schema, table, filter });
    }
    const previous = client.channels.get(topic);
    if (previous) clearTimeout(previous.expiryTimer);
    const broadcast = (config.broadcast ?? {}) as Record<string, unknown>;
    const channel: Channel = {
      topic,
      joinRef,
      bindings,
      claims,
      role: claims.role as string,
      broadcastSelf: broadcast.self === true,
    };
    client.channels.set(topic, channel);
    armExpiry(client, channel);
    // realtime-js compares each returned binding with what it asked for, in order.
    const response = bindings.map((b) => ({ ...pick(b.params, ['event', 'schema', 'table', 'filter']), id: b.id }));
    send(client, [joinRef, ref, topic, 'phx_reply', { status: 'ok', response: { postgres_changes: response } }]);
    if (bindings.length > 0) {
      const channelName = topic.replace(/^realtime:/, '');
      send(client, [
        joinRef,
        null,
        topic,
        'system',
        problems.length > 0
          ? { extension: 'postgres_changes', status: 'error', message: problems.join('; '), channel: channelName }
          : { extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL', channel: channelName },
      ]);
    }
  };

  const onFrame = async (client: Client, frame: Frame) => {
    const [joinRef, ref, topic, event, payload] = frame;
    if (topic === 'phoenix' && event === 'heartbeat') {
      send(client, [null, ref, 'phoenix', 'phx_reply', { status: 'ok', response: {} }]);
      return;
    }
    if (event === 'phx_join') return join(client, frame);
    const channel = client.channels.get(topic);
    if (event === 'phx_leave') {
      if (channel) {
        clearTimeout(channel.expiryTimer);
        client.channels.delete(topic);
      }
      send(client, [joinRef, ref, topic, 'phx_reply', { status: 'ok', response: {} }]);
      return;
    }
    if (!channel) {
      send(client, [joinRef, ref, topic, 'phx_reply', { status: 'error', response: { reason: 'unmatched topic' } }]);
      return;
    }
    if (event === 'access_token') {
      try {
        channel.claims = await verify(String(payload.access_token ?? ''));
        channel.role = channel.claims.role as string;
        armExpiry(client, channel);
      } catch (error) {
        closeChannel(
          client,
          channel,
          isExpiredError(error) ? 'Token has expired' : `Invalid token: ${(error as Error).message}`,
        );
      }
      return;
    }
    if (event === 'broadcast') {
      for (const other of clients) {
        if (other === client && !channel.broadcastSelf) continue;
        if (other.channels.has(topic)) send(other, [null, null, topic, 'broadcast', payload]);
      }
      if (ref) send(client, [joinRef, ref, topic, 'phx_reply', { status: 'ok', response: {} }]);
      return;
    }
    if (ref) send(client, [joinRef, ref, topic, 'phx_reply', { status: 'ok', response: {} }]);
  };

  const isVisible = async (change: CapturedChange, role: string, claims: Claims): Promise<boolean> => {
    if (role === 'service_role') return true;
    let enabled = rlsEnabled.get(change.relationOid);
    if (enabled === undefined) {
      const { rows } = await ctx.adminPool.query<{ relrowsecurity: boolean }>(
        'select relrowsecurity from pg_class where oid = $1',
        [change.relationOid],
      );
      enabled = rows[0]?.relrowsecurity ?? false;
      rlsEnabled.set(change.relationOid, enabled);
    }
    const record = change.record ?? {};
    const keys = change.keyColumns.length > 0 ? change.keyColumns : Object.keys(record);
    const db = await ctx.adminPool.connect();
    try {
      await db.query('begin');
      await db.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
        role,
        JSON.stringify(claims),
      ]);
      const where = keys.map((key, index) => `${quoteIdent(key)} = $${index + 1}`).join(' and ');
      const { rows } = await db.query(
        `select 1 from ${quoteIdent(change.schema)}.${quoteIdent(change.table)} where ${where} limit 1`,
        keys.map((key) => normalizeParam(record[key])),
      );
      await db.query('rollback');
      return rows.length > 0 || !enabled;
    } catch {
      await db.query('rollback').catch(() => {});
      // A role without SELECT on the table sees nothing of it.
      return false;
    } finally {
      db.release();
    }
  };

  const dispatch = async (changes: CapturedChange[]) => {
    for (const change of changes) {
      const values = change.type === 'DELETE' ? (change.oldRecord ?? {}) : (change.record ?? {});
      const deliveries: Array<{ client: Client; channel: Channel; ids: number[] }> = [];
      for (const client of clients) {
        for (const channel of client.channels.values()) {
          const ids = channel.bindings
            .filter(
              (b) =>
                (b.event === '*' || b.event === change.type) &&
                b.schema === change.schema &&
                (b.table === '*' || b.table === change.table) &&
                (!b.filter || matchesFilter(b.filter, values)),
            )
            .map((b) => b.id);
          if (ids.length > 0) deliveries.push({ client, channel, ids });
        }
      }
      if (deliveries.length === 0) continue;
      // One visibility check per distinct identity, not per socket.
      const verdicts = new Map<string, Promise<boolean>>();
      for (const delivery of deliveries) {
        const key = `${delivery.channel.role}:${JSON.stringify(delivery.channel.claims)}`;
        if (change.type !== 'DELETE' && !verdicts.has(key))
          verdicts.set(key, isVisible(change, delivery.channel.role, delivery.channel.claims));
      }
      for (const delivery of deliveries) {
        const { channel } = delivery;
        if (typeof channel.claims.exp === 'number' && channel.claims.exp * 1000 < Date.now()) continue;
        if (change.type !== 'DELETE') {
          const key = `${channel.role}:${JSON.stringify(channel.claims)}`;
          if (!(await verdicts.get(key))) continue;
        }
        const rlsOn = rlsEnabled.get(change.relationOid) ?? true;
        const data: Record<string, unknown> = {
          schema: change.schema,
          table: change.table,
          commit_timestamp: change.commitTimestamp,
          type: change.type,
          columns: change.columns,
          errors: null,
        };
        if (change.type !== 'DELETE') data.record = change.record;
        if (change.type !== 'INSERT') {
          // Under RLS a DELETE reveals only the primary key, as Supabase Realtime does.
          data.old_record =
            change.type === 'DELETE' && rlsOn && change.oldRecord
              ? Object.fromEntries(change.keyColumns.map((k) => [k, change.oldRecord![k]]))
              : (change.oldRecord ?? {});
        }
        send(delivery.client, [null, null, channel.topic, 'postgres_changes', { ids: delivery.ids, data }]);
      }
    }
  };

  const stream = new ChangeStream(ctx.adminDbUrl, dispatch, ctx.log);
  await stream.start();

  const rejectUpgrade = (socket: Duplex, message: string) => {
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  return {
    handle(_req, res) {
      const body = JSON.stringify({ message: 'The local stack serves Realtime over the websocket only' });
      res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
      res.end(body);
    },
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, subpath: string) {
      const url = new URL(subpath, 'http://realtime.local');
      if (url.pathname !== '/websocket') {
        socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      const apikey = url.searchParams.get('apikey') ?? (req.headers['x-api-key'] as string | undefined);
      if (!apikey) return rejectUpgrade(socket, 'API key is missing');
      verify(apikey).then(
        (claims) => {
          wss.handleUpgrade(req, socket, head, (ws) => {
            const client: Client = {
              socket: ws,
              vsn: url.searchParams.get('vsn') === '1.0.0' ? '1.0.0' : '2.0.0',
              apikeyClaims: claims,
              apikey,
              channels: new Map(),
            };
            clients.add(client);
            ws.on('message', (data: RawData, isBinary: boolean) => {
              if (isBinary) return; // binary user broadcasts are not relayed by this stack
              let frame: Frame;
              try {
                const parsed: unknown = JSON.parse(data.toString());
                frame = Array.isArray(parsed)
                  ? (parsed as Frame)
                  : (() => {
                      const o = parsed as Record<string, unknown>;
                      return [o.join_ref ?? null, o.ref ?? null, o.topic, o.event, o.payload ?? {}] as Frame;
                    })();
              } catch {
                return;
              }
              onFrame(client, frame).catch((error: unknown) => ctx.log(`frame failed: ${(error as Error).message}`));
            });
            ws.on('close', () => {
              for (const channel of client.channels.values()) clearTimeout(channel.expiryTimer);
              clients.delete(client);
            });
            ws.on('error', () => ws.terminate());
          });
        },
        (error: unknown) =>
          rejectUpgrade(
            socket,
            isExpiredError(error)
              ? 'Token has expired'
              : (error as Error).message.includes('required')
                ? (error as Error).message
                : 'The token provided is not a valid JWT',
          ),
      );
    },
    async close() {
      for (const client of clients) client.socket.terminate();
      wss.close();
      await stream.stop();
    },
  };
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(
    keys.filter((k) => source[k] !== undefined && source[k] !== null).map((k) => [k, source[k]]),
  );
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function normalizeParam(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
}
