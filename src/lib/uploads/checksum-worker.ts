import { createSHA256 } from 'hash-wasm';

/**
 * Hashes files off the main thread, one at a time, as they stream from disk: a 10^9-byte file never sits in
 * memory whole (Web Crypto's digest() would need it in one buffer). The digest is the hex sha256 that
 * post-processing writes to files.checksum, so the two can be compared.
 */

export type ChecksumRequest = { id: string; file: Blob } | { cancel: string };
export type ChecksumReply =
  { id: string; hashed: number } | { id: string; checksum: string } | { id: string; error: string };

/** How often (in bytes) progress is reported back. */
const PROGRESS_STEP = 16 * 1024 * 1024;

const queue: Array<{ id: string; file: Blob }> = [];
const cancelled = new Set<string>();
let running = false;

// The worker's own postMessage (the DOM typings describe a window's, which wants a target origin).
const reply = (message: ChecksumReply) => (self as unknown as Worker).postMessage(message);

async function hash(id: string, file: Blob) {
  const hasher = await createSHA256();
  hasher.init();
  const reader = file.stream().getReader();
  let hashed = 0;
  let reported = 0;
  for (;;) {
    if (cancelled.has(id)) {
      await reader.cancel();
      return;
    }
    const { done, value } = await reader.read();
    if (done) break;
    hasher.update(value);
    hashed += value.length;
    if (hashed - reported >= PROGRESS_STEP) {
      reported = hashed;
      reply({ id, hashed });
    }
  }
  reply({ id, checksum: hasher.digest('hex') });
}

async function drain() {
  if (running) return;
  running = true;
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (cancelled.delete(next.id)) continue;
    try {
      await hash(next.id, next.file);
    } catch (error) {
      reply({ id: next.id, error: error instanceof Error ? error.message : String(error) });
    }
    cancelled.delete(next.id);
  }
  running = false;
}

addEventListener('message', (event: MessageEvent<ChecksumRequest>) => {
  const request = event.data;
  if ('cancel' in request) cancelled.add(request.cancel);
  else {
    queue.push(request);
    void drain();
  }
});
