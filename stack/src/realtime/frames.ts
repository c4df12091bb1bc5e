import type { RawData } from 'ws';
import { canWrite, readPolicies, type Extension } from './authorization.ts';
import { relayBroadcast } from './dispatch.ts';
import { join } from './join.ts';
import { decodeBinary, decodeText, type Message, type UserBroadcast } from './protocol.ts';
import { tokenProblem, type Channel, type Client, type Sessions } from './session.ts';

/**
 * What a socket sends: heartbeats, joins and leaves, new access tokens, broadcasts and presence. Frames of one
 * socket are handled one after another, in order.
 */

/** Private channels ask RLS once per extension, then remember (as Realtime keeps its policies). */
async function mayWrite(sessions: Sessions, channel: Channel, extension: Extension): Promise<boolean> {
  channel.policies.write[extension] ??= await canWrite(
    sessions.ctx.adminPool,
    channel.identity,
    channel.name,
    extension,
  );
  return channel.policies.write[extension];
}

async function onAccessToken(sessions: Sessions, client: Client, channel: Channel, token: unknown) {
  // Realtime ignores a missing token, the one already in use, and new-style API keys.
  if (typeof token !== 'string' || token === channel.accessToken || token.startsWith('sb_')) return;
  try {
    const claims = await sessions.verify(token);
    channel.identity = { role: claims.role as string, claims };
    channel.accessToken = token;
    sessions.armExpiry(client, channel);
    if (channel.isPrivate) {
      // A new identity: Realtime authorizes the channel again.
      const read = await readPolicies(sessions.ctx.adminPool, channel.identity, channel.name);
      channel.policies = { read, write: {} };
      if (!read.broadcast && !read.presence) {
        sessions.shutDownChannel(
          client,
          channel,
          `Unauthorized: You do not have permissions to read from this Channel topic: ${channel.name}`,
        );
      }
    }
  } catch (error) {
    sessions.shutDownChannel(client, channel, tokenProblem(error));
  }
}

async function onPresence(sessions: Sessions, client: Client, channel: Channel, request: Message) {
  const { topic, payload } = request;
  const presenceEvent = typeof payload.event === 'string' ? payload.event.toLowerCase() : '';
  if (presenceEvent === 'track') {
    if (!(await mayWrite(sessions, channel, 'presence'))) {
      sessions.reply(client, request, 'error', { reason: 'Unauthorized' });
      return;
    }
    const meta = payload.payload ?? {};
    if (typeof meta !== 'object' || Array.isArray(meta) || meta === null) {
      sessions.reply(client, request, 'error', { reason: 'Presence track payload must be a map' });
      return;
    }
    const diff = sessions.presence.track(topic, channel, channel.presenceKey, meta as Record<string, unknown>);
    sessions.fanOutPresence(topic, diff);
  } else if (presenceEvent === 'untrack') {
    sessions.fanOutPresence(topic, sessions.presence.untrack(topic, channel));
  } else {
    sessions.reply(client, request, 'error', {});
    return;
  }
  sessions.reply(client, request, 'ok', {});
}

async function onMessage(
  sessions: Sessions,
  client: Client,
  request: Message,
  binaryBroadcast: UserBroadcast | undefined,
  changesStreaming: () => boolean,
) {
  const { topic, event, payload } = request;
  if (topic === 'phoenix' && event === 'heartbeat') {
    sessions.reply(client, request, 'ok', {});
    return;
  }
  if (event === 'phx_join') return join(sessions, client, request, changesStreaming);
  const channel = client.channels.get(topic);
  if (event === 'phx_leave') {
    if (channel) sessions.forgetChannel(client, channel);
    sessions.reply(client, request, 'ok', {});
    return;
  }
  if (!channel) {
    sessions.reply(client, request, 'error', { reason: 'unmatched topic' });
    return;
  }
  switch (event) {
    case 'access_token':
      return onAccessToken(sessions, client, channel, payload.access_token);
    case 'broadcast': {
      // Realtime drops a broadcast its sender may not write, without an answer.
      if (!(await mayWrite(sessions, channel, 'broadcast'))) return;
      const broadcast: UserBroadcast = {
        ...(binaryBroadcast ?? {
          topic,
          event: typeof payload.event === 'string' ? payload.event : '',
          payload: payload.payload,
          binary: false,
        }),
        private: channel.isPrivate,
      };
      relayBroadcast(sessions, client, broadcast, channel.broadcastSelf);
      if (request.ref && channel.broadcastAck) sessions.reply(client, request, 'ok', {});
      return;
    }
    case 'presence':
      return onPresence(sessions, client, channel, request);
    default:
      // Realtime logs unexpected events and answers nothing.
      return;
  }
}

/** Decodes a frame (text JSON or a binary broadcast) and queues it behind the socket's earlier frames. */
export function onFrame(
  sessions: Sessions,
  client: Client,
  data: RawData,
  isBinary: boolean,
  changesStreaming: () => boolean,
): void {
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
    .then(() => onMessage(sessions, client, decoded, broadcast, changesStreaming))
    .catch((error: unknown) => sessions.ctx.log(`realtime frame failed: ${(error as Error).stack ?? String(error)}`));
}
