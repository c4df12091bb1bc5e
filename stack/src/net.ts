import net from 'node:net';

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Polls until `url` answers 2xx; rejects early if `failFast` settles (e.g. the child process exited). */
export async function waitForHttp(
  url: string,
  options: { timeoutMs: number; failFast?: Promise<unknown> },
): Promise<void> {
  let failed = false;
  void options.failFast?.then(() => (failed = true));
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (failed) throw new Error(`process serving ${url} exited before it was ready`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${url}`);
}
