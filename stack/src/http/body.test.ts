import type { IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBody, readJsonObject } from './body.ts';

const request = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c))) as unknown as IncomingMessage;
const limits = {
  limit: 10,
  tooLarge: () => new Error('too large'),
  invalid: () => new Error('invalid'),
};

describe('request bodies', () => {
  it('reads a body within the limit', async () => {
    expect((await readBody(request('hola ', 'mundo'), limits)).toString()).toBe('hola mundo');
  });

  it('refuses a body over the limit and still reads it to the end, so the connection survives', async () => {
    const req = request('0123456789', 'más allá del límite', 'y más');
    await expect(readBody(req, limits)).rejects.toThrow('too large');
    if (!req.readableEnded) await once(req, 'end');
    expect(req.readableEnded).toBe(true);
  });

  it('reads a JSON object; an empty body is {}', async () => {
    expect(await readJsonObject(request('{"a":1}'), limits)).toEqual({ a: 1 });
    expect(await readJsonObject(request(''), limits)).toEqual({});
  });

  it('refuses JSON that is not an object', async () => {
    await expect(readJsonObject(request('[1,2]'), limits)).rejects.toThrow('invalid');
    await expect(readJsonObject(request('{"a":'), limits)).rejects.toThrow('invalid');
  });
});
