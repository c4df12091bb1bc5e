/**
 * Phoenix channel framing as realtime-js speaks it: serializer 2.0.0 sends
 * text frames `[join_ref, ref, topic, event, payload]` and user broadcasts as binary frames; 1.0.0 sends
 * JSON objects. Decoding never throws: a frame that is not understood yields null.
 */

export type Vsn = '1.0.0' | '2.0.0';

export interface Message {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

/** A user broadcast as it travels between clients; `payload` is raw bytes when `binary`. */
export interface UserBroadcast {
  topic: string;
  event: string;
  payload: unknown;
  binary: boolean;
  /** Sent on (or to) a private channel: only private channels of that name receive it. */
  private?: boolean;
  /** Realtime's metadata of a message from the database: `{id}` of its realtime.messages row. */
  meta?: Record<string, unknown>;
}

const USER_BROADCAST_PUSH = 3;
const USER_BROADCAST = 4;
const BINARY_ENCODING = 0;
const JSON_ENCODING = 1;

const asRef = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
const asPayload = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export function decodeText(text: string): Message | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (Array.isArray(parsed)) {
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string') return null;
    return { joinRef: asRef(joinRef), ref: asRef(ref), topic, event, payload: asPayload(payload) };
  }
  if (parsed !== null && typeof parsed === 'object') {
    const frame = parsed as Record<string, unknown>;
    if (typeof frame.topic !== 'string' || typeof frame.event !== 'string') return null;
    return {
      joinRef: asRef(frame.join_ref),
      ref: asRef(frame.ref),
      topic: frame.topic,
      event: frame.event,
      payload: asPayload(frame.payload),
    };
  }
  return null;
}

/**
 * A binary client frame: only the 2.0.0 "user broadcast push" exists (kind 3: lengths of join_ref, ref,
 * topic, event and metadata, the payload encoding, those strings, then the payload).
 */
export function decodeBinary(data: Buffer): { message: Message; broadcast: UserBroadcast } | null {
  if (data.length < 7 || data[0] !== USER_BROADCAST_PUSH) return null;
  const lengths = [data[1]!, data[2]!, data[3]!, data[4]!, data[5]!];
  const encoding = data[6]!;
  let offset = 7;
  const strings = lengths.map((length) => {
    const value = data.subarray(offset, offset + length).toString('utf8');
    offset += length;
    return value;
  });
  if (offset > data.length) return null;
  const [joinRef, ref, topic, event] = strings as [string, string, string, string];
  const body = data.subarray(offset);
  let payload: unknown = Buffer.from(body);
  if (encoding === JSON_ENCODING) {
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      return null;
    }
  } else if (encoding !== BINARY_ENCODING) return null;
  const broadcast = { topic, event, payload, binary: encoding === BINARY_ENCODING };
  return {
    message: {
      joinRef: joinRef || null,
      ref: ref || null,
      topic,
      event: 'broadcast',
      payload: { type: 'broadcast', event, payload },
    },
    broadcast,
  };
}

/** Encodes a message whose payload is already JSON text (shared between many recipients). */
export function encodeWithPayloadJson(
  vsn: Vsn,
  joinRef: string | null,
  ref: string | null,
  topic: string,
  event: string,
  payloadJson: string,
): string {
  if (vsn === '1.0.0') {
    return `{"join_ref":${JSON.stringify(joinRef)},"ref":${JSON.stringify(ref)},"topic":${JSON.stringify(topic)},"event":${JSON.stringify(event)},"payload":${payloadJson}}`;
  }
  return `[${JSON.stringify(joinRef)},${JSON.stringify(ref)},${JSON.stringify(topic)},${JSON.stringify(event)},${payloadJson}]`;
}

export function encode(vsn: Vsn, message: Message): string {
  return encodeWithPayloadJson(
    vsn,
    message.joinRef,
    message.ref,
    message.topic,
    message.event,
    JSON.stringify(message.payload),
  );
}

/**
 * A broadcast for one recipient. 2.0.0 clients get the binary "user broadcast" frame (kind 4), which is
 * the only way to carry binary payloads; 1.0.0 clients get a text frame (binary payloads cannot reach them).
 */
export function encodeBroadcast(vsn: Vsn, broadcast: UserBroadcast): string | Buffer | null {
  if (vsn === '2.0.0') {
    const topic = Buffer.from(broadcast.topic, 'utf8');
    const event = Buffer.from(broadcast.event, 'utf8');
    if (topic.length > 255 || event.length > 255) return null;
    const meta = Buffer.from(broadcast.meta ? JSON.stringify(broadcast.meta) : '', 'utf8');
    if (meta.length > 255) return null;
    const body = broadcast.binary
      ? Buffer.from(broadcast.payload as Uint8Array)
      : Buffer.from(JSON.stringify(broadcast.payload ?? {}), 'utf8');
    const header = Buffer.from([
      USER_BROADCAST,
      topic.length,
      event.length,
      meta.length,
      broadcast.binary ? BINARY_ENCODING : JSON_ENCODING,
    ]);
    return Buffer.concat([header, topic, event, meta, body]);
  }
  if (broadcast.binary) return null;
  return encode(vsn, {
    joinRef: null,
    ref: null,
    topic: broadcast.topic,
    event: 'broadcast',
    payload: {
      type: 'broadcast',
      event: broadcast.event,
      payload: broadcast.payload,
      ...(broadcast.meta ? { meta: broadcast.meta } : {}),
    },
  });
}
