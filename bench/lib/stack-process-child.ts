import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startStack } from '@mediateca/stack';
import { LOG_LINES_KEPT } from './harness.ts';
import { watchPatches } from './patch-timeline.ts';
import { watchRealtimeSlices } from './realtime-timeline.ts';
import type { FromStack, StackEndpoints } from './stack-process.ts';

/** The stack of withStackProcess (stack-process.ts): started here, stopped when the parent says so. */
const recent: string[] = [];
const send = (message: FromStack) => process.send!(message);

try {
  const stack = await startStack({
    ephemeral: true,
    seed: true,
    log: (line) => {
      recent.push(line);
      if (recent.length > LOG_LINES_KEPT) recent.shift();
    },
  });
  const { stop, restartDatabase, ...endpoints } = stack;
  // The gateway runs here, so the TUS chunks' timeline is taken here and handed over when asked for.
  const patches = watchPatches();
  // Realtime's stages, per change (realtime-timeline.ts); read and restarted with 'realtime'.
  const realtime = watchRealtimeSlices();
  // How late this process's callbacks run (gateway, Auth, Storage, Realtime share its event loop): a wait
  // every request through the gateway pays. Read and restarted with 'loop'.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on('message', (message) => {
    if (message === 'logs') send({ logs: recent });
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      send({ cpuSeconds: (user + system) / 1e6 });
    }
    if (message === 'patches') send({ patches: patches.take() });
    if (message === 'realtime') send({ realtime: realtime.take() });
    if (message === 'loop') {
      send({ loopDelay: { p50: loop.percentile(50) / 1e6, p95: loop.percentile(95) / 1e6, max: loop.max / 1e6 } });
      loop.reset();
    }
    if (message === 'restart-database')
      void restartDatabase().then(
        () => send({ restarted: true }),
        (error: unknown) => send({ restartFailed: String(error) }),
      );
    if (message === 'stop') {
      patches.stop();
      realtime.stop();
      void stop().finally(() => process.exit(0));
    }
  });
  send({ ready: endpoints satisfies StackEndpoints });
} catch (error) {
  send({ failed: `${(error as Error).stack ?? String(error)}\n${recent.join('\n')}` });
  process.exit(1);
}
