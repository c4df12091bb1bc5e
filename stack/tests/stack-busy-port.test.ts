import net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startStack } from '../src/stack.ts';
import { freePort } from '../src/net.ts';

/** A start that cannot get its database port says which port, instead of failing with no reason at all. */
describe('a busy database port', () => {
  const blocker = net.createServer();
  let dataDir = '';

  afterAll(async () => {
    blocker.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('stops the start with an error naming the port', async () => {
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = (blocker.address() as net.AddressInfo).port;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-busy-port-'));
    await expect(
      startStack({ dataDir, apiPort: await freePort(), dbPort: busy, seed: false, jobWorker: false, log: () => {} }),
    ).rejects.toThrow(`Postgres did not start on port ${busy}`);
  });
});
