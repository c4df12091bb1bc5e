import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { client, stackInfo } from '../../tests/helpers/clients.ts';
import { eventually, sha256 } from '../../tests/helpers/checks.ts';

/**
 * The TUS requests that carry bytes, on the wire: what a PATCH (and a POST with creation-with-upload) does
 * with its body at the edges (wrong offset, too many bytes, a client that goes away, a second request for
 * the same upload). The stack writes bodies straight from the Node request to the upload's file (issue
 * 33); these hold it to what @tus/server's own path answered.
 */

const MiB = 1024 * 1024;
const BUCKET = `tus-${crypto.randomUUID().slice(0, 8)}`;
let service: SupabaseClient;

beforeAll(async () => {
  service = client('service_role');
  expect((await service.storage.createBucket(BUCKET)).error).toBeNull();
});

const base64 = (value: string) => Buffer.from(value).toString('base64');
const auth = () => ({ authorization: `Bearer ${stackInfo().serviceRoleKey}`, 'tus-resumable': '1.0.0' });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request; `body` is written in the given pieces, `hold` keeps the request open after them and
 * `onSent` hears when they are written (the caller then ends or destroys the request).
 */
function send(
  method: string,
  url: string,
  headers: Record<string, string | number>,
  pieces: Buffer[] = [],
  options: { hold?: boolean; onSent?: (request: http.ClientRequest) => void } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: { ...auth(), ...headers } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
    for (const piece of pieces) request.write(piece);
    options.onSent?.(request);
    if (!options.hold) request.end();
  });
}

async function create(name: string, size: number, first?: Buffer): Promise<{ url: string; answer: Answer }> {
  const answer = await send(
    'POST',
    `${stackInfo().apiUrl}/storage/v1/upload/resumable`,
    {
      'upload-length': size,
      'upload-metadata': `bucketName ${base64(BUCKET)},objectName ${base64(name)}`,
      ...(first ? { 'content-type': 'application/offset+octet-stream', 'content-length': first.length } : {}),
    },
    first ? [first] : [],
  );
  expect(answer.status).toBe(201);
  return { url: answer.headers.location!, answer };
}

const patch = (url: string, offset: number, headers: Record<string, string | number> = {}) => ({
  'upload-offset': offset,
  'content-type': 'application/offset+octet-stream',
  ...headers,
});

async function offsetOf(url: string): Promise<number> {
  const answer = await send('HEAD', url, {});
  return Number(answer.headers['upload-offset']);
}

/**
 * How many of an upload's bytes have reached the stack's disk, from the upload's file itself: a HEAD would ask
 * for the upload's lock and so end the very PATCH a test is holding open.
 */
async function landedBytes(url: string): Promise<number> {
  const id = decodeURIComponent(new URL(url).pathname.split('/').pop()!);
  return (await stat(path.join(stackInfo().dataDir, 'storage', 'tus', id))).size;
}

async function storedSha(name: string): Promise<string> {
  const { data, error } = await service.storage.from(BUCKET).download(name);
  if (error) throw error;
  return sha256(await data.arrayBuffer());
}

describe('TUS bodies', () => {
  it('stores the bytes sent with the creation request, then the rest by PATCH', async () => {
    const bytes = randomBytes(3 * MiB + 7);
    const { url, answer } = await create('with-creation.bin', bytes.length, bytes.subarray(0, MiB));
    expect(answer.headers['upload-offset']).toBe(String(MiB));
    const rest = bytes.subarray(MiB);
    const done = await send('PATCH', url, patch(url, MiB, { 'content-length': rest.length }), [rest]);
    expect(done.status).toBe(204);
    expect(done.headers['upload-offset']).toBe(String(bytes.length));
    expect(await storedSha('with-creation.bin')).toBe(sha256(bytes));
  });

  it('answers a PATCH at the wrong offset with 409 and writes nothing', async () => {
    const { url } = await create('wrong-offset.bin', 2 * MiB);
    const piece = randomBytes(MiB);
    expect((await send('PATCH', url, patch(url, 0, { 'content-length': MiB }), [piece])).status).toBe(204);
    const again = await send('PATCH', url, patch(url, 0, { 'content-length': MiB }), [piece]);
    expect(again.status).toBe(409);
    expect(await offsetOf(url)).toBe(MiB);
  });

  it('refuses a chunked body that runs past the upload length with 413, and nothing past it lands', async () => {
    const { url } = await create('too-long.bin', MiB);
    // No Content-Length: the server can only count the bytes as they come.
    const answer = await send('PATCH', url, patch(url, 0, { 'transfer-encoding': 'chunked' }), [
      randomBytes(MiB / 2),
      randomBytes(MiB),
    ]);
    expect(answer.status).toBe(413);
    expect(await offsetOf(url)).toBeLessThanOrEqual(MiB);
    expect((await service.storage.from(BUCKET).exists('too-long.bin')).data).toBe(false);
  });

  it('keeps the bytes that landed when the client goes away mid-PATCH, and resumes from them', async () => {
    const bytes = randomBytes(4 * MiB);
    const { url } = await create('cut.bin', bytes.length);
    const cut = send('PATCH', url, patch(url, 0, { 'content-length': bytes.length }), [bytes.subarray(0, MiB)], {
      hold: true,
      onSent: (request) =>
        void eventually(async () => ((await landedBytes(url)) === MiB ? true : undefined)).then(() =>
          request.destroy(),
        ),
    });
    await expect(cut).rejects.toThrow('socket hang up');
    const offset = await eventually(async () => ((await offsetOf(url)) === MiB ? MiB : undefined));
    const rest = bytes.subarray(offset);
    const done = await send('PATCH', url, patch(url, offset, { 'content-length': rest.length }), [rest]);
    expect(done.status).toBe(204);
    expect(await storedSha('cut.bin')).toBe(sha256(bytes));
  });

  it('ends a stalled PATCH with what it received when a second request for the upload comes', async () => {
    const bytes = randomBytes(4 * MiB);
    const { url } = await create('stalled.bin', bytes.length);
    let stalled: http.ClientRequest | undefined;
    const first = send('PATCH', url, patch(url, 0, { 'content-length': bytes.length }), [bytes.subarray(0, MiB)], {
      hold: true,
      onSent: (request) => (stalled = request),
    });
    await eventually(async () => ((await landedBytes(url)) === MiB ? true : undefined));
    // The second request asks for the lock: the first gets @tus/server's drain time, then stops reading.
    const second = await send('PATCH', url, patch(url, 0, { 'content-length': 10 }), [randomBytes(10)]);
    const answer = await first;
    stalled?.destroy();
    expect(answer.status).toBe(204);
    expect(answer.headers['upload-offset']).toBe(String(MiB));
    expect(second.status).toBe(409);
    expect(await offsetOf(url)).toBe(MiB);
  }, 30_000);
});
