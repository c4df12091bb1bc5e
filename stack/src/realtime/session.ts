import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { ServiceContext } from '../service.ts';
import { isExpiredError, verifyJwt, type Claims, type JwtKeys } from '../jwt.ts';
import type { Identity } from './access.ts';
import type { CapturedChange } from './changes.ts';
import type { Extension } from './authorization.ts';
import type { Filter } from './filters.ts';
import { PresenceRegistry, type PresenceDiff } from './presence.ts';
import { encode, encodeWithPayloadJson, type Message, type Vsn } from './protocol.ts';

/**
 * The connected sockets and their joined channels: what each channel was granted, how to send to a socket
 * without waiting for it, and how a channel ends (left, token expired, database lost).
 *
 * Delivery never waits for a client: frames go to ws's per-socket buffer and a socket whose buffer passes
 * MAX_BUFFERED_BYTES (a client that stopped reading) is terminated, so it cannot hold back others.
 */

export interface Binding {
  id: number;
  params: Record<string, unknown>;
  event: '*' | CapturedChange['type'];
  schema: string;
  table: string;
  filter: Filter;
}

export interface Channel {
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

export interface Client {
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
const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

/** Verifies a Realtime token: signed with the stack secret, with `role` and `exp`, an API role. */
export async function verifyToken(token: string, keys: JwtKeys): Promise<Claims> {
  const claims = await verifyJwt(token, keys);
  if (typeof claims.role !== 'string' || typeof claims.exp !== 'number') {
    throw new Error('Fields `role` and `exp` are required in JWT');
  }
  if (!API_ROLES.has(claims.role)) throw new Error(`role "${claims.role}" is not allowed`);
  return claims;
}

const ownMessage = (error: unknown) => (error as Error).message.startsWith('Fields');

/** Why a token was refused, in the words Realtime uses on a channel. */
export const tokenProblem = (error: unknown) =>
  isExpiredError(error)
    ? 'Token has expired'
    : ownMessage(error)
      ? (error as Error).message
      : `Invalid token: ${(error as Error).message}`;

/** Why a token was refused, in the words Realtime uses for a connection or a REST call. */
export const connectionProblem = (error: unknown) =>
  isExpiredError(error)
    ? 'Token has expired'
    : ownMessage(error)
      ? (error as Error).message
      : 'The token provided is not a valid JWT';

export class Sessions {
  readonly clients = new Set<Client>();
  readonly presence = new PresenceRegistry();

  constructor(readonly ctx: ServiceContext) {}

  verify(token: string): Promise<Claims> {
    return verifyToken(token, this.ctx.jwtKeys);
  }

  /**
   * Runs `send` with every client's socket corked, so that the frames it sends one client leave in one write:
   * a transaction of 60 changes seen by 20 people is 1,200 frames, one system call each otherwise. (ws corks
   * around each frame itself; a socket's corks nest.)
   */
  corked(send: () => void): void {
    const sockets = [...this.clients].flatMap((client) => {
      const socket = (client.socket as unknown as { _socket?: Socket })._socket;
      return socket && !socket.destroyed ? [socket] : [];
    });
    for (const socket of sockets) socket.cork();
    try {
      send();
    } finally {
      for (const socket of sockets) socket.uncork();
    }
  }

  sendRaw(client: Client, data: string | Buffer): void {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ctx.log('dropping a realtime client that is not reading its messages');
      client.socket.terminate();
      return;
    }
    client.socket.send(data);
  }

  send(client: Client, message: Message): void {
    this.sendRaw(client, encode(client.vsn, message));
  }

  reply(client: Client, request: Message, status: 'ok' | 'error', response: Record<string, unknown>): void {
    this.send(client, {
      joinRef: request.joinRef,
      ref: request.ref,
      topic: request.topic,
      event: 'phx_reply',
      payload: { status, response },
    });
  }

  systemMessage(client: Client, channel: Channel, extension: string, status: 'ok' | 'error', message: string): void {
    this.send(client, {
      joinRef: channel.joinRef,
      ref: null,
      topic: channel.topic,
      event: 'system',
      payload: { extension, status, message, channel: channel.name },
    });
  }

  /** A presence change reaches every channel of its topic that may read presence. */
  fanOutPresence(topic: string, diff: PresenceDiff | null): void {
    if (!diff) return;
    const payloadJson = JSON.stringify(diff);
    for (const other of this.clients) {
      if (!other.channels.get(topic)?.policies.read.presence) continue;
      this.sendRaw(other, encodeWithPayloadJson(other.vsn, null, null, topic, 'presence_diff', payloadJson));
    }
  }

  /** The channel is gone from its socket (left, replaced by a new join, ended): its presence leaves too. */
  forgetChannel(client: Client, channel: Channel): void {
    clearTimeout(channel.expiryTimer);
    if (client.channels.get(channel.topic) === channel) client.channels.delete(channel.topic);
    this.fanOutPresence(channel.topic, this.presence.untrack(channel.topic, channel));
  }

  /**
   * Ends a joined channel as Realtime does: a `system` error saying why, then `phx_close` (the channel is over:
   * a token expired or was refused) or `phx_error` (its process died: realtime-js rejoins it with backoff).
   */
  private endChannel(
    client: Client,
    channel: Channel,
    reason: { extension: string; message: string; event: 'phx_close' | 'phx_error' },
  ): void {
    this.systemMessage(client, channel, reason.extension, 'error', reason.message);
    this.send(client, {
      joinRef: channel.joinRef,
      ref: channel.joinRef,
      topic: channel.topic,
      event: reason.event,
      payload: {},
    });
    this.forgetChannel(client, channel);
  }

  /** Realtime's shutdown of a channel whose token expired or was refused. */
  shutDownChannel(client: Client, channel: Channel, message: string): void {
    this.endChannel(client, channel, { extension: 'system', message, event: 'phx_close' });
  }

  /**
   * Realtime when it loses the project database: the channel's process ends (`phx_error`), realtime-js rejoins
   * with backoff, and the join that succeeds once the database is back is a fresh subscription. Changes made
   * meanwhile are not replayed: clients refetch when they see SUBSCRIBED again.
   */
  failChannel(client: Client, channel: Channel): void {
    this.endChannel(client, channel, {
      extension: 'postgres_changes',
      message: 'Realtime was unable to connect to the project database',
      event: 'phx_error',
    });
  }

  /** The channel closes when its token expires, unless a new token arrives first. */
  armExpiry(client: Client, channel: Channel): void {
    clearTimeout(channel.expiryTimer);
    const exp = channel.identity.claims.exp;
    if (typeof exp !== 'number') return;
    channel.expiryTimer = setTimeout(
      () => this.shutDownChannel(client, channel, 'Token has expired'),
      Math.max(0, Math.min(exp * 1000 - Date.now(), 2 ** 31 - 1)),
    );
    channel.expiryTimer.unref();
  }

  /** Every channel with postgres_changes bindings fails (the change stream was lost). */
  failChangeChannels(): void {
    for (const client of this.clients) {
      for (const channel of [...client.channels.values()]) {
        if (channel.bindings.length > 0) this.failChannel(client, channel);
      }
    }
  }

  /** The socket closed: it leaves every channel. */
  disconnect(client: Client): void {
    this.clients.delete(client);
    for (const channel of [...client.channels.values()]) this.forgetChannel(client, channel);
  }
}
