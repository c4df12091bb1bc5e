import net from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startStack } from '../src/stack.ts';
import { listenOn } from '../src/net.ts';

/** A start that cannot get a port it was given says which port, instead of failing with no reason at all. */
describe('a busy port', () => {
  const blocker = net.createServer();
  const dataDirs: string[] = [];

  afterAll(async () => {
    blocker.close();
    for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
  });

  const busyPortAndDataDir = async () => {
    if (!blocker.listening) await listenOn(blocker, 0, '127.0.0.1');
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-busy-port-'));
    dataDirs.push(dataDir);
    return { busy: (blocker.address() as net.AddressInfo).port, dataDir };
  };

  it('stops the start with an error naming the database port', async () => {
    const { busy, dataDir } = await busyPortAndDataDir();
    await expect(
      startStack({ dataDir, apiPort: 0, dbPort: busy, seed: false, jobWorker: false, log: () => {} }),
    ).rejects.toThrow(`Postgres did not start on port ${busy}`);
  });

  it('refuses a busy API port before starting anything, since the gateway binds it first', async () => {
    const { busy, dataDir } = await busyPortAndDataDir();
    await expect(
      startStack({ dataDir, apiPort: busy, dbPort: 0, seed: false, jobWorker: false, log: () => {} }),
    ).rejects.toThrow(`address already in use 127.0.0.1:${busy}`);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('leaves no temporary directory behind when an ephemeral start cannot have its API port', async () => {
    const { busy, dataDir: tmp } = await busyPortAndDataDir();
    // This test file's own process: its ephemeral stacks' directories go into an empty directory of its own.
    const tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      await expect(
        startStack({ ephemeral: true, apiPort: busy, seed: false, jobWorker: false, log: () => {} }),
      ).rejects.toThrow(`address already in use 127.0.0.1:${busy}`);
    } finally {
      process.env.TMPDIR = tmpdir;
    }
    expect(await readdir(tmp)).toEqual([]);
  });
});
