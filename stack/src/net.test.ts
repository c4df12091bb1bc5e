import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOn, withFreePorts } from './net.ts';

const servers: net.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A real server on `port`, as a child process would bind it. */
async function bind(port: number): Promise<number> {
  const server = net.createServer();
  servers.push(server);
  await listenOn(server, port, '127.0.0.1');
  return port;
}

describe('withFreePorts', () => {
  it('picks other ports when one it picked was taken before the server bound it', async () => {
    const tries: number[][] = [];
    const retried: unknown[] = [];
    const bound = await withFreePorts(
      2,
      async (ports) => {
        tries.push(ports);
        // On the first try someone else takes the second port first, as an outgoing connection may.
        if (tries.length === 1) await bind(ports[1]!);
        return Promise.all(ports.map(bind));
      },
      (error) => retried.push(error),
    );
    expect(tries).toHaveLength(2);
    expect(new Set(tries[1]).size).toBe(2);
    expect(bound).toEqual(tries[1]);
    expect(retried).toEqual([expect.objectContaining({ code: 'EADDRINUSE' })]);
  });

  it('gives up after its attempts with the last error', async () => {
    let calls = 0;
    await expect(
      withFreePorts(
        1,
        async () => {
          calls += 1;
          throw new Error(`start ${calls} failed`);
        },
        () => {},
      ),
    ).rejects.toThrow('start 3 failed');
    expect(calls).toBe(3);
  });
});
