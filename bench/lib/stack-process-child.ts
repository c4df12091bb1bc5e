import { startStack } from '../../stack/src/stack.ts';
import { LOG_LINES_KEPT } from './harness.ts';
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
  process.on('message', (message) => {
    if (message === 'logs') send({ logs: recent });
    if (message === 'restart-database')
      void restartDatabase().then(
        () => send({ restarted: true }),
        (error: unknown) => send({ restartFailed: String(error) }),
      );
    if (message === 'stop') void stop().finally(() => process.exit(0));
  });
  send({ ready: endpoints satisfies StackEndpoints });
} catch (error) {
  send({ failed: `${(error as Error).stack ?? String(error)}\n${recent.join('\n')}` });
  process.exit(1);
}
