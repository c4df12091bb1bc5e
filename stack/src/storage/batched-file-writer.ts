import { close, open, writev } from 'node:fs';
import { Writable } from 'node:stream';

/** Bytes held in memory, waiting for the write under way, before the writer stops taking more. */
const HELD_LIMIT = 1024 * 1024;

/**
 * A file writer for request bodies that writes what arrived together in one `writev` at the file's
 * position. fs.WriteStream writes every 64 KiB socket read by itself (one thread-pool round trip, one
 * syscall and one wake-up of the event loop each: 16,384 per GiB) unless a write is still under way.
 * Here every piece that arrives in one turn of the event loop goes out in one call, and those that
 * arrive during a write go in the next. Nothing waits for more bytes to come: a client that stalls
 * has all it sent on disk within one turn. On `end()` everything is written before 'finish'; when
 * destroyed (the client went away) the write under way completes and what had not started is dropped,
 * as fs.WriteStream does, so no byte lands after the request's lock is released.
 */
export class BatchedFileWriter extends Writable {
  bytesWritten = 0;
  private fd: number | null = null;
  private readonly opening: Promise<number>;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private writing: Promise<void> | null = null;
  private scheduled = false;
  private held: ((error?: Error | null) => void) | null = null;
  private failure: Error | null = null;

  constructor(
    file: string,
    private position: number,
  ) {
    super({ highWaterMark: HELD_LIMIT });
    this.opening = new Promise((resolve, reject) =>
      open(file, 'r+', (error, fd) => (error ? reject(error) : resolve((this.fd = fd)))),
    );
    // An open that fails is reported by the first write (or by end()).
    this.opening.catch(() => {});
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.take([chunk], callback);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (error?: Error | null) => void): void {
    this.take(
      chunks.map(({ chunk }) => chunk),
      callback,
    );
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.drain().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.pending = [];
    this.pendingBytes = 0;
    const release = this.held;
    this.held = null;
    release?.(error);
    const closeFile = () => {
      if (this.fd === null) return callback(error);
      close(this.fd, (closeError) => callback(error ?? closeError));
      this.fd = null;
    };
    Promise.all([this.opening.catch(() => {}), this.writing?.catch(() => {})]).then(closeFile, closeFile);
  }

  private take(chunks: Buffer[], callback: (error?: Error | null) => void): void {
    if (this.failure) return callback(this.failure);
    for (const chunk of chunks) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
    }
    if (!this.writing && !this.scheduled) {
      // The pieces the socket hands over in this turn of the event loop join this write.
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        if (!this.writing) this.writing = this.writeAll();
      });
    }
    if (this.pendingBytes >= HELD_LIMIT) this.held = callback;
    else callback();
  }

  /** Writes what is pending, then what arrived meanwhile, until nothing is left. */
  private async writeAll(): Promise<void> {
    try {
      const fd = await this.opening;
      while (this.pending.length > 0 && !this.destroyed) {
        const buffers = this.pending;
        this.pending = [];
        this.pendingBytes = 0;
        this.releaseHeld();
        await this.writeFully(fd, buffers);
      }
    } catch (error) {
      this.failure = error as Error;
      const release = this.held;
      this.held = null;
      release?.(this.failure);
    } finally {
      this.writing = null;
    }
  }

  private releaseHeld() {
    const release = this.held;
    this.held = null;
    release?.();
  }

  /** One writev, continued after a short write (a disk that fills up part-way reports the rest's error). */
  private async writeFully(fd: number, buffers: Buffer[]): Promise<void> {
    let rest = buffers;
    while (rest.length > 0) {
      const written = await new Promise<number>((resolve, reject) =>
        writev(fd, rest, this.position, (error, bytes) => (error ? reject(error) : resolve(bytes))),
      );
      if (written === 0) throw new Error('the file took no bytes');
      this.position += written;
      this.bytesWritten += written;
      rest = skip(rest, written);
    }
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.writing) await this.writing;
      if (this.failure) throw this.failure;
      if (this.pending.length === 0) return;
      this.writing = this.writeAll();
    }
  }
}

/** `buffers` without their first `bytes` bytes. */
function skip(buffers: Buffer[], bytes: number): Buffer[] {
  let index = 0;
  let left = bytes;
  while (index < buffers.length && left >= buffers[index]!.length) left -= buffers[index++]!.length;
  const rest = buffers.slice(index);
  if (left > 0 && rest.length > 0) rest[0] = rest[0]!.subarray(left);
  return rest;
}
