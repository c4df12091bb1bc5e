import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchedFileWriter } from './batched-file-writer.ts';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'batched-writer-'));
  file = path.join(dir, 'upload');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const pieces = (count: number, size: number) => Array.from({ length: count }, () => randomBytes(size));

describe('BatchedFileWriter', () => {
  it('writes every piece at the given position, in order, and counts them', async () => {
    const head = Buffer.from('already here');
    await writeFile(file, head);
    const body = pieces(200, 64 * 1024 + 3);
    const writer = new BatchedFileWriter(file, head.length);
    await pipeline(Readable.from(body), writer);
    expect(writer.bytesWritten).toBe(body.reduce((sum, piece) => sum + piece.length, 0));
    // Buffer.equals: a deep toEqual of 13 MB walks every byte as a property.
    expect((await readFile(file)).equals(Buffer.concat([head, ...body]))).toBe(true);
  });

  it('puts on disk what a stalled sender has sent, without waiting for more', async () => {
    await writeFile(file, '');
    const source = new PassThrough();
    const writer = new BatchedFileWriter(file, 0);
    const done = pipeline(source, writer);
    source.write(randomBytes(1000));
    source.write(randomBytes(24));
    for (let tries = 0; (await stat(file)).size < 1024; tries++) {
      expect(tries).toBeLessThan(100);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    source.end();
    await done;
    expect((await stat(file)).size).toBe(1024);
  });

  it('fails the pipeline when the file cannot be opened', async () => {
    const writer = new BatchedFileWriter(path.join(dir, 'missing', 'upload'), 0);
    await expect(pipeline(Readable.from([Buffer.from('x')]), writer)).rejects.toThrow('ENOENT');
  });

  it('keeps what was written before the sender went away, and nothing after', async () => {
    await writeFile(file, '');
    const source = new PassThrough();
    const writer = new BatchedFileWriter(file, 0);
    const done = pipeline(source, writer);
    source.write(randomBytes(4096));
    while ((await stat(file)).size < 4096) await new Promise((resolve) => setTimeout(resolve, 10));
    source.destroy(new Error('aborted'));
    await expect(done).rejects.toThrow('aborted');
    expect((await stat(file)).size).toBe(4096);
  });
});
