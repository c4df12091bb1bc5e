import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import type { MountedService, ServiceContext } from '../service.ts';
import { bearerToken, verifyJwt, isExpiredError, type Claims } from '../jwt.ts';
import { evaluateAccess, identityKey, type AccessVerdict, type Identity } from './access.ts';
import { ChangeStream, type CapturedChange } from './changes.ts';
import { matchesFilter, parseFilter, type Filter } from './filters.ts';
import { PresenceRegistry, type PresenceDiff } from './presence.ts';
import { canWrite, readPolicies, type Extension } from './authorization.ts';
import {
  decodeBinary,
  decodeText,
  encode,
  encodeBroadcast,
  encodeWithPayloadJson,
  type Message,
  type UserBroadcast,
  type Vsn,
} from './protocol.ts';

/**
 * Supabase Realtime at /realtime/v1 (LOCAL_STACK_CONTRACT.md section 6) for @supabase/realtime-js as
 * shipped in supabase-js 2.x: Phoenix channels over WebSocket (serializer 2.0.0 arrays and binary
 * broadcasts, 1.0.0 objects), postgres_changes with each change checked against each subscriber's
 * privileges and RLS in Postgres (access.ts) before delivery, broadcast between clients (WebSocket and
 * REST), and presence. Private channels (`config.private`) are authorized by RLS on realtime.messages
 * as Realtime does it (authorization.ts). Changes come from a logical replication stream (changes.ts
 * explains why not triggers).
 *
 * Delivery never waits for a client: frames go to ws's per-socket buffer and a socket whose buffer
 * passes MAX_BUFFERED_BYTES (a client that stopped reading) is terminated, so it cannot hold back others.
 */

interface Binding {
  id: number;
  params: Record<string, unknown>;
  event: '*' | CapturedChange['type'];
  schema: string;
  table: string;
  filter: Filter;
}

interface Channel {
  topic: string;
  /** The topic without `realtime:`, as Realtime names it in system messages. */
  name: string;
  joinRef: string | null;
  bindings: Binding[];
  /** False when any binding failed to subscribe: like Realtime's subscription transaction, all or none. */
  postgresActive: boolean;
  identity: Identity;
  accessToken: string;
  broadcastSelf: boolean;
  broadcastAck: boolean;
  presenceKey: string;
  isPrivate: boolean;
  /** Private channels: what RLS on realtime.messages allowed (read at join, write on first use). */
  policies: { read: { broadcast: boolean; presence: boolean }; write: Partial<Record<Extension, boolean>> };
  expiryTimer?: NodeJS.Timeout;
}

interface Client {
  socket: WebSocket;
  vsn: Vsn;
  apikey: string;
  channels: Map<string, Channel>;
  lastSeen: number;
  /** Frames of one socket are handled in order (a leave cannot overtake the join it follows). */
  queue: Promise<void>;
}

/** A client whose outgoing buffer grows past this is not reading: it is dropped, not waited for. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** realtime-js heartbeats every 25 s; a socket silent for this long is gone. */
const IDLE_TIMEOUT_MS = 75_000;
/** Realtime's max_record_bytes: bigger changes are sent without their values over 64 bytes. */
const MAX_RECORD_BYTES = 1024 * 1024;
const MAX_REST_BODY_BYTES = 3 * 1024 * 1024;
const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);
const ALL_ALLOWED = { broadcast: true, presence: true };

export async function createRealtimeService(ctx: ServiceContext): Promise<MountedService> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  const clients = new Set<Client>();
  const presence = new PresenceRegistry();
  let nextBindingId = 1;

  // ---------------------------------------------------------------- sending

  const sendRaw = (client: Client, data: string | Buffer) => {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      ctx.log('dropping a realtime client that is not reading its messages');
      client.socket.terminate();
      return;
    }
    client.socket.send(data);
  };

  const send = (client: Client, message: Message) => sendRaw(client, encode(client.vsn, message));

  const reply = (client: Client, request: Message, status: 'ok' | 'error', response: Record<string, unknown>) =>
    send(client, {
      joinRef: request.joinRef,
      ref: request.ref,
      topic: request.topic,
      event: 'phx_reply',
      payload: { status, response },
    });

  const systemMessage = (
    client: Client,
    channel: Channel,
    extension: string,
    status: 'ok' | 'error',
    message: string,
  ) =>
    send(client, {
      joinRef: channel.joinRef,
      ref: null,
      topic: channel.topic,
      event: 'system',
      payload: { extension, status, message, channel: channel.name },
    });

  // ---------------------------------------------------------------- tokens and channel lifetime

  const verify = async (token: string): Promise<Claims> => {
    const claims = await verifyJwt(token, ctx.jwtSecret);
    if (typeof claims.role !== 'string' || typeof claims.exp !== 'number') {
      throw new Error('Fields `role` and `exp` are required in JWT');
    }
    if (!API_ROLES.has(claims.role)) throw new Error(`role "${claims.role}" is not allowed`);
    return claims;
  };

  const tokenProblem = (error: unknown) =>
    isExpiredError(error)
      ? 'Token has expired'
      : (error as Error).message.startsWith('Fields')
        ? (error as Error).message
        : `Invalid token: ${(error as Error).message}`;

  const presenceDiff = (topic: string, diff: PresenceDiff | null) => {
    if (!diff) return;
    const payloadJson = JSON.stringify(diff);
    for (const other of clients) {
      if (!other.channels.get(topic)?.policies.read.presence) continue;
      sendRaw(other, encodeWithPayloadJson(other.vsn, null, null, topic, 'presence_diff', payloadJson));
    }
  };

  const forgetChannel = (client: Client, channel: Channel) => {
    clearTimeout(channel.expiryTimer);
    if (client.channels.get(channel.topic) === channel) client.channels.delete(channel.topic);
    presenceDiff(channel.topic, presence.untrack(channel.topic, channel));
  };

  /**
   * Ends a joined channel as Realtime does: a `system` error saying why, then `phx_close` (the channel is over:
   * a token expired or was refused) or `phx_error` (its process died: realtime-js rejoins it with backoff).
   */
  const endChannel = (
    client: Client,
    channel: Channel,
    reason: { extension: string; message: string; event: 'phx_close' | 'phx_error' },
  ) => {
    systemMessage(client, channel, reason.extension, 'error', reason.message);
    send(client, {
      joinRef: channel.joinRef,
      ref: channel.joinRef,
      topic: channel.topic,
      event: reason.event,
      payload: {},
    });
    forgetChannel(client, channel);
  };

  /** Realtime's shutdown of a channel whose token expired or was refused. */
  const shutDownChannel = (client: Client, channel: Channel, message: string) =>
    endChannel(client, channel, { extension: 'system', message, event: 'phx_close' });

  /**
   * Realtime when it loses the project database: the channel's process ends (`phx_error`), realtime-js rejoins
   * with backoff, and the join that succeeds once the database is back is a fresh subscription. Changes made
   * meanwhile are not replayed: clients refetch when they see SUBSCRIBED again.
   */
  const failChannel = (client: Client, channel: Channel) =>
    endChannel(client, channel, {
      extension: 'postgres_changes',
      message: 'Realtime was unable to connect to the project database',
      event: 'phx_error',
    });

  const armExpiry = (client: Client, channel: Channel) => {
    clearTimeout(channel.expiryTimer);
    const exp = channel.identity.claims.exp;
    if (typeof exp !== 'number') return;
    channel.expiryTimer = setTimeout(
      () => shutDownChannel(client, channel, 'Token has expired'),
      Math.max(0, Math.min(exp * 1000 - Date.now(), 2 ** 31 - 1)),
    );
    channel.expiryTimer.unref();
  };

  // ---------------------------------------------------------------- joining

  const describeParams = (binding: Omit<Binding, 'id'>) =>
    `event: ${binding.event}, schema: ${binding.schema}, table: ${binding.table}, filters: ${JSON.stringify(
      binding.filter.map((c) => [c.column, c.operator, c.values.join(','), c.negate]),
    )}, select: nil`;

  /** Realtime's subscription checks: the table is published and every filter column is readable by the role. */
  const subscriptionProblem = async (binding: Omit<Binding, 'id'>, role: string): Promise<string | null> => {
    const { rows } = await ctx.adminPool.query<{ oid: number; columns: string[] }>(
      `select c.oid::int,
              coalesce((select array_agg(a.attname::text) from pg_attribute a
                         where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                           and has_column_privilege($4, c.oid, a.attnum, 'SELECT')), '{}') as columns
         from pg_publication_tables p
         join pg_class c on c.relname = p.tablename
         join pg_namespace n on n.oid = c.relnamespace and n.nspname = p.schemaname
        where p.pubname = 'supabase_realtime'
          and ($1 = '*' or p.schemaname = $1) and ($2 = '*' or p.tablename = $2)
          and exists (select 1 from pg_roles where rolname = $3)`,
      [binding.schema, binding.table, role, role],
    );
    if (rows.length === 0) {
      return `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [${describeParams(binding)}]`;
    }
    for (const row of rows) {
      const missing = binding.filter.find((condition) => !row.columns.includes(condition.column));
      if (missing) {
        return `Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: [${describeParams(binding)}]. Exception: invalid column for filter ${missing.column}`;
      }
    }
    return null;
  };

  const join = async (client: Client, request: Message) => {
    const { payload, topic } = request;
    const config = (payload.config ?? {}) as Record<string, unknown>;
    const accessToken = typeof payload.access_token === 'string' ? payload.access_token : client.apikey;
    let claims: Claims;
    try {
      claims = await verify(accessToken);
    } catch (error) {
      reply(client, request, 'error', { reason: tokenProblem(error) });
      return;
    }
    const role = claims.role as string;
    const isPrivate = config.private === true;
    const name = topic.replace(/^realtime:/, '');
    const read = isPrivate ? await readPolicies(ctx.adminPool, { role, claims }, name) : ALL_ALLOWED;
    if (!read.broadcast && !read.presence) {
      reply(client, request, 'error', {
        reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${name}`,
      });
      return;
    }
    const requested = Array.isArray(config.postgres_changes)
      ? (config.postgres_changes as unknown[]).map((p) =>
          p !== null && typeof p === 'object' ? (p as Record<string, unknown>) : {},
        )
      : [];
    const bindings: Binding[] = [];
    let problem: string | null = null;
    for (const params of requested) {
      const event =
        typeof params.event === 'string' && ['INSERT', 'UPDATE', 'DELETE'].includes(params.event.toUpperCase())
          ? (params.event.toUpperCase() as Binding['event'])
          : '*';
      const hasSchema = typeof params.schema === 'string';
      const hasTable = typeof params.table === 'string';
      const schema = hasSchema ? (params.schema as string) : 'public';
      const table = hasTable ? (params.table as string) : '*';
      let filter: Filter = [];
      if (!hasSchema && !hasTable) {
        problem ??= `No subscription params provided. Please provide at least a \`schema\` or \`table\` to subscribe to: ${JSON.stringify(params)}`;
      } else if (typeof params.filter === 'string') {
        try {
          filter = parseFilter(params.filter);
        } catch (error) {
          problem ??= `Error parsing \`filter\` params: ${(error as Error).message}`;
        }
      }
      const binding = { id: nextBindingId++, params, event, schema, table, filter };
      bindings.push(binding);
      if (!problem) problem = await subscriptionProblem(binding, role);
    }

    if (bindings.length > 0 && !stream.streaming) {
      // Without the change stream a confirmed subscription would miss changes: refuse, and realtime-js rejoins.
      reply(client, request, 'error', { reason: 'Realtime was unable to connect to the project database' });
      return;
    }
    const previous = client.channels.get(topic);
    if (previous) forgetChannel(client, previous);
    const broadcast = (config.broadcast ?? {}) as Record<string, unknown>;
    const presenceConfig = (config.presence ?? {}) as Record<string, unknown>;
    const channel: Channel = {
      topic,
      name,
      joinRef: request.joinRef,
      bindings,
      postgresActive: problem === null,
      identity: { role, claims },
      accessToken,
      broadcastSelf: broadcast.self === true,
      broadcastAck: broadcast.ack === true,
      presenceKey:
        typeof presenceConfig.key === 'string' && presenceConfig.key !== '' ? presenceConfig.key : randomUUID(),
      isPrivate,
      policies: { read, write: isPrivate ? {} : ALL_ALLOWED },
    };
    client.channels.set(topic, channel);
    armExpiry(client, channel);
    // realtime-js compares each returned binding with what it asked for, in order, and leaves on a mismatch.
    const response = bindings.map((b) => ({
      ...pickPresent(b.params, ['event', 'schema', 'table', 'filter']),
      id: b.id,
    }));
    reply(client, request, 'ok', { postgres_changes: response });
    if (bindings.length > 0) {
      systemMessage(
        client,
        channel,
        'postgres_changes',
        problem ? 'error' : 'ok',
        problem ?? 'Subscribed to PostgreSQL',
      );
    }
    if (presenceConfig.enabled === true && read.presence) {
      send(client, {
        joinRef: channel.joinRef,
        ref: null,
        topic,
        event: 'presence_state',
        payload: presence.state(topic),
      });
    }
  };

  // ---------------------------------------------------------------- broadcast

  /** Private channels ask RLS once per extension, then remember (as Realtime keeps its policies). */
  const mayWrite = async (channel: Channel, extension: Extension): Promise<boolean> => {
    channel.policies.write[extension] ??= await canWrite(ctx.adminPool, channel.identity, channel.name, extension);
    return channel.policies.write[extension];
  };

  const relayBroadcast = (sender: Client | null, broadcast: UserBroadcast, includeSender: boolean) => {
    const topic = broadcast.topic;
    const encoded = new Map<Vsn, string | Buffer | null>();
    for (const other of clients) {
      if (other === sender && !includeSender) continue;
      const channel = other.channels.get(topic);
      // A private and a public channel of the same name are different topics, as in Realtime.
      if (!channel || channel.isPrivate !== (broadcast.private === true) || !channel.policies.read.broadcast) continue;
      if (!encoded.has(other.vsn)) encoded.set(other.vsn, encodeBroadcast(other.vsn, broadcast));
      const frame = encoded.get(other.vsn);
      if (frame) sendRaw(other, frame);
    }
  };

  // ---------------------------------------------------------------- incoming frames

  const onMessage = async (client: Client, request: Message, binaryBroadcast?: UserBroadcast) => {
    const { topic, event, payload } = request;
    if (topic === 'phoenix' && event === 'heartbeat') {
      reply(client, request, 'ok', {});
      return;
    }
    if (event === 'phx_join') return join(client, request);
    const channel = client.channels.get(topic);
    if (event === 'phx_leave') {
      if (channel) forgetChannel(client, channel);
      reply(client, request, 'ok', {});
      return;
    }
    if (!channel) {
      reply(client, request, 'error', { reason: 'unmatched topic' });
      return;
    }
    switch (event) {
      case 'access_token': {
        const token = payload.access_token;
        // Realtime ignores a missing token, the one already in use, and new-style API keys.
        if (typeof token !== 'string' || token === channel.accessToken || token.startsWith('sb_')) return;
        try {
          const claims = await verify(token);
          channel.identity = { role: claims.role as string, claims };
          channel.accessToken = token;
          armExpiry(client, channel);
          if (channel.isPrivate) {
            // A new identity: Realtime authorizes the channel again.
            const read = await readPolicies(ctx.adminPool, channel.identity, channel.name);
            channel.policies = { read, write: {} };
            if (!read.broadcast && !read.presence) {
              shutDownChannel(
                client,
                channel,
                `Unauthorized: You do not have permissions to read from this Channel topic: ${channel.name}`,
              );
            }
          }
        } catch (error) {
          shutDownChannel(client, channel, tokenProblem(error));
        }
        return;
      }
      case 'broadcast': {
        // Realtime drops a broadcast its sender may not write, without an answer.
        if (!(await mayWrite(channel, 'broadcast'))) return;
        const broadcast: UserBroadcast = {
          ...(binaryBroadcast ?? {
            topic,
            event: typeof payload.event === 'string' ? payload.event : '',
            payload: payload.payload,
            binary: false,
          }),
          private: channel.isPrivate,
        };
        relayBroadcast(client, broadcast, channel.broadcastSelf);
        if (request.ref && channel.broadcastAck) reply(client, request, 'ok', {});
        return;
      }
      case 'presence': {
        const presenceEvent = typeof payload.event === 'string' ? payload.event.toLowerCase() : '';
        if (presenceEvent === 'track') {
          if (!(await mayWrite(channel, 'presence'))) {
            reply(client, request, 'error', { reason: 'Unauthorized' });
            return;
          }
          const meta = payload.payload ?? {};
          if (typeof meta !== 'object' || Array.isArray(meta) || meta === null) {
            reply(client, request, 'error', { reason: 'Presence track payload must be a map' });
            return;
          }
          presenceDiff(topic, presence.track(topic, channel, channel.presenceKey, meta as Record<string, unknown>));
        } else if (presenceEvent === 'untrack') {
          presenceDiff(topic, presence.untrack(topic, channel));
        } else {
          reply(client, request, 'error', {});
          return;
        }
        reply(client, request, 'ok', {});
        return;
      }
      default:
        // Realtime logs unexpected events and answers nothing.
        return;
    }
  };

  const onRawMessage = (client: Client, data: RawData, isBinary: boolean) => {
    client.lastSeen = Date.now();
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    let message: Message | null;
    let broadcast: UserBroadcast | undefined;
    if (isBinary) {
      const decoded = decodeBinary(buffer);
      message = decoded?.message ?? null;
      broadcast = decoded?.broadcast;
    } else {
      message = decodeText(buffer.toString('utf8'));
    }
    if (!message) return; // not a Phoenix frame: ignored, as Realtime does
    const decoded = message;
    client.queue = client.queue
      .then(() => onMessage(client, decoded, broadcast))
      .catch((error: unknown) => ctx.log(`realtime frame failed: ${(error as Error).stack ?? String(error)}`));
  };

  // ---------------------------------------------------------------- postgres_changes

  interface Delivery {
    client: Client;
    channel: Channel;
    ids: number[];
  }

  const matchingDeliveries = (change: CapturedChange): Delivery[] => {
    const values = (change.type === 'DELETE' ? change.oldRecordText : change.recordText) ?? {};
    const typeOf = (column: string) => change.columns.find((c) => c.name === column)?.type;
    const now = Date.now() / 1000;
    const deliveries: Delivery[] = [];
    for (const client of clients) {
      for (const channel of client.channels.values()) {
        if (!channel.postgresActive) continue;
        // An expired token receives nothing until it is refreshed (the channel closes at expiry anyway).
        const exp = channel.identity.claims.exp;
        if (typeof exp === 'number' && exp < now) continue;
        const ids: number[] = [];
        for (const binding of channel.bindings) {
          if (binding.event !== '*' && binding.event !== change.type) continue;
          if (binding.schema !== '*' && binding.schema !== change.schema) continue;
          if (binding.table !== '*' && binding.table !== change.table) continue;
          if (binding.filter.length > 0 && !matchesFilter(binding.filter, values, typeOf)) continue;
          ids.push(binding.id);
        }
        if (ids.length > 0) deliveries.push({ client, channel, ids });
      }
    }
    return deliveries;
  };

  /** The `data` of a postgres_changes push as one role may see it, as apply_rls builds it. */
  const changeData = (change: CapturedChange, role: string, verdict: AccessVerdict): Record<string, unknown> => {
    const selectable = verdict.selectableColumns.get(role) ?? new Set<string>();
    const base = { schema: change.schema, table: change.table, commit_timestamp: change.commitTimestamp };
    if (change.type !== 'DELETE') {
      const errorPayload = (error: string) => ({
        ...base,
        commit_timestamp: null,
        type: change.type,
        columns: [],
        record: {},
        ...(change.type === 'UPDATE' ? { old_record: {} } : {}),
        errors: [error],
      });
      if (change.primaryKey.length === 0) return errorPayload('Error 400: Bad Request, no primary key');
      if (!change.primaryKey.every((column) => selectable.has(column))) return errorPayload('Error 401: Unauthorized');
    }
    const keep = (values: Record<string, unknown> | null, onlyKey: boolean) =>
      Object.fromEntries(
        Object.entries(values ?? {}).filter(
          ([column]) => selectable.has(column) && (!onlyKey || change.primaryKey.includes(column)),
        ),
      );
    const data: Record<string, unknown> = {
      ...base,
      type: change.type,
      columns: change.columns
        .filter((column) => selectable.has(column.name))
        .map((column) => ({ name: column.name, type: column.type })),
    };
    if (change.type !== 'DELETE') data.record = keep(change.record, false);
    // Under RLS a DELETE cannot be checked (the row is gone), so it reveals only the primary key.
    if (change.type !== 'INSERT') {
      data.old_record = keep(change.oldRecord, change.type === 'DELETE' && verdict.rlsEnabled);
    }
    let errors: string[] | null = null;
    if (JSON.stringify(data).length > MAX_RECORD_BYTES) {
      errors = ['Error 413: Payload Too Large'];
      for (const field of ['record', 'old_record'] as const) {
        const values = data[field] as Record<string, unknown> | undefined;
        if (!values) continue;
        data[field] = Object.fromEntries(
          Object.entries(values).filter(([, value]) => Buffer.byteLength(JSON.stringify(value) ?? '') <= 64),
        );
      }
    }
    data.errors = errors;
    return data;
  };

  const prepare = async (change: CapturedChange) => {
    const deliveries = matchingDeliveries(change);
    if (deliveries.length === 0) return null;
    const identities = new Map<string, Identity>();
    for (const { channel } of deliveries) identities.set(identityKey(channel.identity), channel.identity);
    try {
      const verdict = await evaluateAccess(ctx.adminPool, change, [...identities.values()]);
      return { change, deliveries, verdict };
    } catch (error) {
      // Failing closed: nobody receives a change whose access could not be decided.
      ctx.log(`realtime could not check access to a ${change.type} on ${change.table}: ${(error as Error).message}`);
      return null;
    }
  };

  const deliver = ({ change, deliveries, verdict }: NonNullable<Awaited<ReturnType<typeof prepare>>>) => {
    const dataJsonByRole = new Map<string, string>();
    for (const { client, channel, ids } of deliveries) {
      const { role } = channel.identity;
      const selectable = verdict.selectableColumns.get(role);
      const readsKey = change.primaryKey.length > 0 && change.primaryKey.every((column) => selectable?.has(column));
      // INSERT/UPDATE reach a subscriber only if visible under RLS; errors (no key, no privilege) always do.
      if (change.type !== 'DELETE' && readsKey && verdict.visible.get(identityKey(channel.identity)) !== true) continue;
      let dataJson = dataJsonByRole.get(role);
      if (dataJson === undefined) {
        dataJson = JSON.stringify(changeData(change, role, verdict));
        dataJsonByRole.set(role, dataJson);
      }
      sendRaw(
        client,
        encodeWithPayloadJson(
          client.vsn,
          null,
          null,
          channel.topic,
          'postgres_changes',
          `{"ids":${JSON.stringify(ids)},"data":${dataJson}}`,
        ),
      );
    }
  };

  /** One committed transaction: access for all its changes is decided concurrently, delivery is in order. */
  const dispatch = async (changes: CapturedChange[]) => {
    const prepared = changes.map(prepare);
    for (const pending of prepared) {
      const ready = await pending;
      if (ready) deliver(ready);
    }
  };

  const stream = new ChangeStream({
    adminDbUrl: ctx.adminDbUrl,
    adminPool: ctx.adminPool,
    onCommit: dispatch,
    onInterrupted: () => {
      for (const client of clients) {
        for (const channel of [...client.channels.values()]) {
          if (channel.bindings.length > 0) failChannel(client, channel);
        }
      }
    },
    log: ctx.log,
  });
  await stream.start();

  const reaper = setInterval(() => {
    const cutoff = Date.now() - IDLE_TIMEOUT_MS;
    for (const client of clients) if (client.lastSeen < cutoff) client.socket.terminate();
  }, 15_000);
  reaper.unref();

  // ---------------------------------------------------------------- HTTP: upgrade and REST broadcast

  const rejectUpgrade = (socket: Duplex, message: string) => {
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  const upgradeProblem = (error: unknown) =>
    isExpiredError(error)
      ? 'Token has expired'
      : (error as Error).message.startsWith('Fields')
        ? (error as Error).message
        : 'The token provided is not a valid JWT';

  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
    res.end(text);
  };

  const readBody = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_REST_BODY_BYTES) {
          reject(new Error('Payload Too Large'));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });

  /** POST /api/broadcast {messages:[…]} and POST /api/broadcast/{topic}/events/{event} → 202. */
  const handleRest = async (req: IncomingMessage, res: ServerResponse, subpath: string) => {
    const url = new URL(subpath, 'http://realtime.local');
    const single = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/.exec(url.pathname);
    if (url.pathname !== '/api/broadcast' && !single) {
      json(res, 404, { message: 'Not found' });
      return;
    }
    if (req.method !== 'POST') {
      json(res, 405, { message: 'Method not allowed' });
      return;
    }
    const apikey = req.headers.apikey;
    const token = bearerToken(req.headers.authorization) ?? (typeof apikey === 'string' ? apikey : null);
    if (!token) {
      json(res, 401, { message: 'API key is missing' });
      return;
    }
    let claims: Claims;
    try {
      claims = await verify(token);
    } catch (error) {
      json(res, 401, { message: upgradeProblem(error) });
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch {
      json(res, 413, { message: 'Payload Too Large' });
      return;
    }
    const broadcasts: UserBroadcast[] = [];
    try {
      if (single) {
        const binary = !/json/i.test(req.headers['content-type'] ?? 'application/json');
        broadcasts.push({
          topic: `realtime:${decodeURIComponent(single[1]!)}`,
          event: decodeURIComponent(single[2]!),
          payload: binary ? body : JSON.parse(body.toString('utf8')),
          binary,
          private: url.searchParams.get('private') === 'true',
        });
      } else {
        const parsed = JSON.parse(body.toString('utf8')) as { messages?: unknown };
        if (!Array.isArray(parsed.messages)) throw new Error('`messages` must be a list');
        for (const item of parsed.messages as Array<Record<string, unknown>>) {
          if (typeof item.topic !== 'string' || typeof item.event !== 'string') {
            throw new Error('each message needs a `topic` and an `event`');
          }
          broadcasts.push({
            topic: `realtime:${item.topic}`,
            event: item.event,
            payload: item.payload ?? {},
            binary: false,
            private: item.private === true,
          });
        }
      }
    } catch (error) {
      json(res, 400, { message: (error as Error).message });
      return;
    }
    // Like Realtime's REST API: a private message the caller may not write is dropped, the answer stays 202.
    const identity = { role: claims.role as string, claims };
    for (const broadcast of broadcasts) {
      const name = broadcast.topic.replace(/^realtime:/, '');
      if (broadcast.private && !(await canWrite(ctx.adminPool, identity, name, 'broadcast'))) continue;
      relayBroadcast(null, broadcast, true);
    }
    res.writeHead(202, { 'Content-Length': '0' });
    res.end();
  };

  return {
    handle(req, res, subpath) {
      handleRest(req, res, subpath).catch((error: unknown) => {
        ctx.log(`realtime REST failed: ${(error as Error).message}`);
        if (!res.headersSent) json(res, 500, { message: 'Internal error' });
      });
    },
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, subpath: string) {
      const url = new URL(subpath, 'http://realtime.local');
      if (url.pathname !== '/websocket' && url.pathname !== '/websocket/') {
        socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
      }
      const header = req.headers['x-api-key'];
      const apikey = url.searchParams.get('apikey') ?? (typeof header === 'string' ? header : null);
      if (!apikey) return rejectUpgrade(socket, 'API key is missing');
      verify(apikey).then(
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
            clients.add(client);
            ws.on('message', (data: RawData, isBinary: boolean) => onRawMessage(client, data, isBinary));
            ws.on('close', () => {
              clients.delete(client);
              for (const channel of [...client.channels.values()]) forgetChannel(client, channel);
            });
            ws.on('error', () => ws.terminate());
          });
        },
        (error: unknown) => rejectUpgrade(socket, upgradeProblem(error)),
      );
    },
    async close() {
      clearInterval(reaper);
      for (const client of clients) client.socket.terminate();
      wss.close();
      await stream.stop();
    },
  };
}

/** The client's own binding fields, leaving out absent ones (realtime-js treats null as undefined). */
function pickPresent(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(
    keys.filter((k) => source[k] !== undefined && source[k] !== null).map((k) => [k, source[k]]),
  );
}
