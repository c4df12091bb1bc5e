import type { ChecksumReply, ChecksumRequest } from './checksum-worker.ts';

export interface ChecksumCallbacks {
  onProgress: (hashed: number) => void;
  onChecksum: (checksum: string) => void;
  onError: (message: string) => void;
}

/**
 * The upload screen's hasher: one worker, files hashed one after another in the order given (so the first
 * file's check ends first and its upload can start while the next is hashed). `stop` ends the worker.
 */
export function createChecksummer() {
  const worker = new Worker(new URL('./checksum-worker.ts', import.meta.url), { type: 'module' });
  const waiting = new Map<string, ChecksumCallbacks>();
  worker.addEventListener('message', (event: MessageEvent<ChecksumReply>) => {
    const reply = event.data;
    const callbacks = waiting.get(reply.id);
    if (!callbacks) return;
    if ('hashed' in reply) callbacks.onProgress(reply.hashed);
    else {
      waiting.delete(reply.id);
      if ('checksum' in reply) callbacks.onChecksum(reply.checksum);
      else callbacks.onError(reply.error);
    }
  });
  const send = (request: ChecksumRequest) => worker.postMessage(request);
  return {
    hash(id: string, file: Blob, callbacks: ChecksumCallbacks) {
      waiting.set(id, callbacks);
      send({ id, file });
    },
    cancel(id: string) {
      if (waiting.delete(id)) send({ cancel: id });
    },
    stop() {
      waiting.clear();
      worker.terminate();
    },
  };
}

export type Checksummer = ReturnType<typeof createChecksummer>;
