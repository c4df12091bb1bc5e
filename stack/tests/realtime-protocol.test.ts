import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { signJwt } from '../src/jwt.ts';
import { adminDb, client, stackInfo } from '../../tests/helpers/clients.ts';

/**
 * Realtime's wire protocol as realtime-js and Supabase Realtime speak it: the 401 bodies at upgrade,
 * Phoenix frames (2.0.0 arrays, 1.0.0 objects), token refresh and expiry closing the channel, frames the
 * server does not understand, broadcast (binary frames and REST) and presence.
 */

type Frame = [string | null, string | null, string, string, Record<string, unknown>];

function socketUrl(query: Record<string, string>) {
  const url = new URL(`${stackInfo().apiUrl.replace(/^http/, 'ws')}/realtime/v1/websocket`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}

/** A bare Phoenix client that records every text frame it receives. */
class RawSocket {
  readonly frames: unknown[] = [];
  private waiters: Array<{ match: (f: unknown) => boolean; resolve: (f: unknown) => void }> = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const frame: unknown = JSON.parse(data.toString());
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => (w.match(frame) ? (w.resolve(frame), false) : true));
    });
  }

  static open(query: Record<string, string>): Promise<RawSocket> {
    const ws = new WebSocket(socketUrl(query));
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RawSocket(ws)));
      ws.once('error', reject);
    });
  }

  send(frame: unknown) {
    this.ws.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
  }

  next<T = Frame>(match: (frame: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const found = this.frames.find((f) => match(f as T));
    if (found) return Promise.resolve(found as T);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching frame arrived')), timeoutMs);
      this.waiters.push({
        match: (f) => match(f as T),
        resolve: (f) => (clearTimeout(timer), resolve(f as T)),
      });
    });
  }

  close() {
    this.ws.close();
  }
}

/** Status and body of a refused upgrade. */
function refusedUpgrade(query: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const ws = new WebSocket(socketUrl(query));
  return new Promise((resolve, reject) => {
    ws.once('open', () => reject(new Error('the upgrade was accepted')));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) }));
    });
    ws.once('error', () => {});
  });
}

const token = (claims: Record<string, unknown>) => signJwt(claims, stackInfo().jwtSecret);
const inSeconds = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

describe('realtime connection', () => {
  it('refuses upgrades without a valid API key with the Realtime 401 bodies', async () => {
    expect(await refusedUpgrade({ vsn: '2.0.0' })).toEqual({ status: 401, body: { error: 'API key is missing' } });
    expect(await refusedUpgrade({ apikey: 'not-a-jwt', vsn: '2.0.0' })).toEqual({
      status: 401,
      body: { error: 'The token provided is not a valid JWT' },
    });
    expect(await refusedUpgrade({ apikey: await token({ role: 'anon', exp: inSeconds(-60) }) })).toEqual({
      status: 401,
      body: { error: 'Token has expired' },
    });
    expect(await refusedUpgrade({ apikey: await token({ role: 'anon' }) })).toEqual({
      status: 401,
      body: { error: 'Fields `role` and `exp` are required in JWT' },
    });
  });

  it('answers heartbeats, and survives binary and malformed frames', async () => {
    const socket = await RawSocket.open({ apikey: stackInfo().anonKey, vsn: '2.0.0' });
    try {
      socket.send(Buffer.from([0xff, 0x00, 0x13, 0x37]));
      socket.send(Buffer.from([3, 200, 200, 200, 200, 200, 1, 65]));
      socket.send('{ not json');
      socket.send('[1, 2]');
      socket.send([null, '8', 'phoenix', 'heartbeat', {}]);
      expect(await socket.next((f) => f[1] === '8')).toEqual([
        null,
        '8',
        'phoenix',
        'phx_reply',
        { status: 'ok', response: {} },
      ]);
    } finally {
      socket.close();
    }
  });

  it('speaks the 1.0.0 serializer (objects) when asked', async () => {
    const socket = await RawSocket.open({ apikey: stackInfo().anonKey, vsn: '1.0.0' });
    try {
      socket.send({ topic: 'realtime:v1-room', event: 'phx_join', payload: { config: {} }, ref: '1', join_ref: '1' });
      expect(await socket.next<Record<string, unknown>>((f) => f.ref === '1')).toEqual({
        join_ref: '1',
        ref: '1',
        topic: 'realtime:v1-room',
        event: 'phx_reply',
        payload: { status: 'ok', response: { postgres_changes: [] } },
      });
    } finally {
      socket.close();
    }
  });

  it('closes a channel whose token expires, and one refreshed with an invalid token', async () => {
    const socket = await RawSocket.open({ apikey: stackInfo().anonKey, vsn: '2.0.0' });
    try {
      const shortLived = await token({ role: 'anon', exp: inSeconds(2) });
      socket.send(['1', '1', 'realtime:expiring', 'phx_join', { config: {}, access_token: shortLived }]);
      await socket.next((f) => f[1] === '1' && f[3] === 'phx_reply');
      const expired = await socket.next((f) => f[2] === 'realtime:expiring' && f[3] === 'system');
      expect(expired[4]).toEqual({
        extension: 'system',
        status: 'error',
        message: 'Token has expired',
        channel: 'expiring',
      });
      await socket.next((f) => f[2] === 'realtime:expiring' && f[3] === 'phx_close');

      socket.send(['2', '2', 'realtime:refreshed', 'phx_join', { config: {} }]);
      await socket.next((f) => f[1] === '2' && f[3] === 'phx_reply');
      socket.send(['2', '3', 'realtime:refreshed', 'access_token', { access_token: 'garbage' }]);
      const refused = await socket.next((f) => f[2] === 'realtime:refreshed' && f[3] === 'system');
      expect(refused[4]).toMatchObject({ extension: 'system', status: 'error', channel: 'refreshed' });
      await socket.next((f) => f[2] === 'realtime:refreshed' && f[3] === 'phx_close');
    } finally {
      socket.close();
    }
  });

  it('captures changes through a temporary replication slot, so nothing is retained when the stack stops', async () => {
    const db = await adminDb();
    try {
      const { rows } = await db.query<{ temporary: boolean; active: boolean }>(
        `select temporary, active from pg_replication_slots where slot_name like 'local_stack_realtime_%'`,
      );
      expect(rows).toEqual([{ temporary: true, active: true }]);
    } finally {
      await db.end();
    }
  });
});

function joined(channel: RealtimeChannel): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') resolve(channel);
      if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
    });
  });
}

describe('broadcast and presence', () => {
  it('relays broadcasts between clients (binary frames and REST), not back to a sending socket by default', async () => {
    const sender: SupabaseClient = client('anon');
    const receiver: SupabaseClient = client('anon');
    const topic = `room-${crypto.randomUUID()}`;
    const received: Array<{ event: string; payload: unknown }> = [];
    const echoed: unknown[] = [];
    const arrived = (count: number) =>
      expect.poll(() => received.length, { timeout: 15_000, interval: 50 }).toBeGreaterThanOrEqual(count);
    try {
      await joined(
        receiver.channel(topic).on('broadcast', { event: '*' }, (message) => {
          received.push({ event: message.event, payload: message.payload });
        }),
      );
      const out = await joined(sender.channel(topic).on('broadcast', { event: '*' }, (m) => echoed.push(m)));
      expect(await out.send({ type: 'broadcast', event: 'cursor', payload: { x: 1, y: 2 } })).toBe('ok');
      await arrived(1);
      expect(received[0]).toEqual({ event: 'cursor', payload: { x: 1, y: 2 } });

      await expect(out.httpSend('por-rest', { hola: 'mundo' })).resolves.toEqual({ success: true });
      await arrived(2);
      expect(received[1]).toEqual({ event: 'por-rest', payload: { hola: 'mundo' } });
      // self: false keeps the sender's own WebSocket broadcast from it; a REST message has no sender socket.
      expect(echoed).toEqual([expect.objectContaining({ event: 'por-rest' })]);
    } finally {
      await sender.removeAllChannels();
      await receiver.removeAllChannels();
    }
  });

  it('tracks presence on public channels and tells members who joined and left', async () => {
    const first = client('anon');
    const second = client('anon');
    const topic = `presence-${crypto.randomUUID()}`;
    try {
      const one = await joined(
        first.channel(topic, { config: { presence: { key: 'uno' } } }).on('presence', { event: 'sync' }, () => {}),
      );
      const two = await joined(
        second.channel(topic, { config: { presence: { key: 'dos' } } }).on('presence', { event: 'sync' }, () => {}),
      );
      expect(await one.track({ estado: 'en línea' })).toBe('ok');
      expect(await two.track({ estado: 'ocupado' })).toBe('ok');
      await expect
        .poll(() => Object.keys(one.presenceState()).sort(), { timeout: 15_000, interval: 50 })
        .toEqual(['dos', 'uno']);
      expect(one.presenceState().dos).toEqual([expect.objectContaining({ estado: 'ocupado' })]);
      await two.untrack();
      await expect.poll(() => Object.keys(one.presenceState()), { timeout: 15_000, interval: 50 }).toEqual(['uno']);
    } finally {
      await first.removeAllChannels();
      await second.removeAllChannels();
    }
  });
});
