import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What one upload by the client process took. */
export interface UploadTiming {
  ms: number;
  /** From sending the upload's last request to its answer. */
  lastRequestMs: number;
  /** CPU-seconds of the client's process during the upload. */
  cpuSeconds: number;
}

export type ClientTask =
  | {
      tus: {
        endpoint: string;
        headers: Record<string, string>;
        file: string;
        size: number;
        chunkSize: number;
        metadata: Record<string, string>;
      };
    }
  /** The file as consecutive PUTs of `chunkSize` bytes, each carrying its offset, one after another. */
  | { put: { url: string; file: string; size: number; chunkSize: number } };

export type ClientAnswer = { ready: true } | { timing: UploadTiming } | { failed: string };

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'upload-client-child.ts');

/**
 * A Node process that uploads when asked (upload-client-child.ts): the client of the storage benchmark, apart
 * from the stack's process and from the benchmark's own, as a browser is apart from the server it talks to.
 */
export async function startUploadClient() {
  const child: ChildProcess = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<ClientAnswer>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the upload client exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message as ClientAnswer);
      });
    });
  await next();
  return {
    async upload(task: ClientTask): Promise<UploadTiming> {
      const answer = next();
      child.send(task);
      const message = await answer;
      if ('failed' in message) throw new Error(message.failed);
      if (!('timing' in message)) throw new Error(`the upload client answered ${JSON.stringify(message)}`);
      return message.timing;
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('exit');
      await exited;
    },
  };
}
