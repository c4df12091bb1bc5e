import net from 'node:net';

/**
 * A TCP port that was free a moment ago on 127.0.0.1. Anything may take it before it is bound (another stack, an
 * outgoing connection's local port): bind port 0 with `listenOn` where the server is ours, and retry where a child
 * process binds it (`withFreePorts`).
 */
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

/** Listens on `port` (0: any free one), rejecting with the server's error (EADDRINUSE: the port is taken). */
export function listenOn(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Starts a child process's server on free ports, picked just before it binds them, and again (up to `attempts`
 * times) when the start fails: with nothing else to tell a taken port from other failures, a start that fails
 * for another reason fails `attempts` times and its last error is thrown.
 */
export async function withFreePorts<T>(
  count: number,
  start: (ports: number[]) => Promise<T>,
  onRetry: (error: unknown) => void,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const ports: number[] = [];
    while (ports.length < count) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    try {
      return await start(ports);
    } catch (error) {
      if (attempt >= attempts) throw error;
      onRetry(error);
    }
  }
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
