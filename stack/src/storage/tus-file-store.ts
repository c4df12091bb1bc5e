import path from 'node:path';
import type http from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileConfigstore, FileStore, type Configstore } from '@tus/file-store';
import { ERRORS, StreamLimiter, Upload } from '@tus/server';
import { syncFile } from './blobs.ts';
import { BatchedFileWriter } from './batched-file-writer.ts';

/**
 * @tus/server's FileStore (an upload's bytes in one file, its record in a JSON file beside it, so an upload
 * survives a restart of the stack) with three differences, all about speed:
 *
 * - Each chunk starts its way to disk as soon as it is in, in the background, instead of leaving a whole
 *   upload in the page cache for the final fsync: the last PATCH of a 1 GiB upload then syncs one chunk's
 *   worth of pages, not a gigabyte of them (it took 0.3–0.7 s). The bytes are durable at the same
 *   moment as before: the final 204 still waits for `flushed()` and for BlobStore.adopt's own fsync. At most
 *   one flush per upload runs at a time; chunks that land meanwhile are covered by one more flush after it.
 * - `writeRequest` writes a request's body straight into the file (see tus-request-body.ts), what arrived
 *   together in one `writev` (batched-file-writer.ts) rather than one write per 64 KiB socket read.
 * - Upload records are also kept in memory ({@link RememberedRecords}).
 *
 * And one about behaving as hosted Storage does: an upload stays known once it has finished. Hosted Storage
 * keeps it in its S3 store, so a HEAD after the last PATCH (a client checking where it stands) answers the
 * full offset, and the creation of a 0-byte upload, which @tus/server finishes inside the POST and then reads
 * back for its Upload-Expires header, answers 201. Here the bytes move to the blob store when an upload
 * finishes, so the finished upload is remembered ({@link markFinished}) instead: a 0-byte upload was a 404
 * "The file for this url was not found".
 */
export class TusFileStore extends FileStore {
  private readonly flushes = new Map<string, { running: Promise<void>; again: boolean }>();
  private readonly finished = new Map<string, Upload>();

  constructor(options: { directory: string; expirationPeriodInMilliseconds: number }) {
    super({ ...options, configstore: new RememberedRecords(new FileConfigstore(options.directory)) });
  }

  override async write(readable: http.IncomingMessage | Readable, id: string, offset: number): Promise<number> {
    const written = await super.write(readable, id, offset);
    this.startFlush(id);
    return written;
  }

  /**
   * A request's body written into the upload's file at its offset, with what @tus/server's own path
   * guarantees: no more than `maxBytes` reach the file (413 otherwise); a client that goes away keeps what
   * had landed (the next HEAD reports it); when `signal` aborts (another request wants the lock) the write
   * ends with what has arrived so far. The request itself is never destroyed here, so a refusal is
   * answered instead of cutting the connection. Resolves with the new offset.
   */
  async writeRequest(body: Readable, upload: Upload, maxBytes: number, signal: AbortSignal): Promise<number> {
    if (signal.aborted) throw ERRORS.ABORTED;
    const limiter = new StreamLimiter(maxBytes);
    // The id was resolved inside the directory by getUpload (or create) before any write.
    const file = new BatchedFileWriter(path.join(this.directory, upload.id), upload.offset);
    const stop = () => {
      body.unpipe(limiter);
      limiter.end();
    };
    let sourceError: unknown;
    const onSourceError = (error: unknown) => {
      sourceError = error;
      if (signal.aborted) stop();
      else limiter.destroy(error as Error);
    };
    body.on('error', onSourceError);
    signal.addEventListener('abort', stop, { once: true });
    try {
      await pipeline(body.pipe(limiter), file);
    } catch (error) {
      body.unpipe(limiter);
      throw error === sourceError || (error as Error).name === 'AbortError' ? ERRORS.ABORTED : error;
    } finally {
      body.off('error', onSourceError);
      signal.removeEventListener('abort', stop);
      this.startFlush(upload.id);
    }
    return upload.offset + file.bytesWritten;
  }

  override async getUpload(id: string): Promise<Upload> {
    const finished = this.finished.get(id);
    if (finished) return new Upload({ ...finished, offset: finished.size ?? finished.offset });
    return super.getUpload(id);
  }

  /** Remembers a finished upload (its bytes are in the blob store now) for as long as its URL lives. */
  markFinished(upload: Upload, lifetimeMs: number) {
    this.finished.set(upload.id, new Upload({ ...upload, storage: undefined }));
    setTimeout(() => this.finished.delete(upload.id), lifetimeMs).unref();
  }

  isFinished(id: string): boolean {
    return this.finished.has(id);
  }

  /** An upload's record (size, metadata) without its offset, which getUpload reads from the file. */
  record(id: string): Promise<Upload | undefined> {
    return this.configstore.get(id);
  }

  /** Resolves once every chunk written so far has been through a flush (errors surface in the final fsync). */
  async flushed(id: string): Promise<void> {
    for (let flush = this.flushes.get(id); flush; flush = this.flushes.get(id)) await flush.running;
  }

  private startFlush(id: string) {
    const current = this.flushes.get(id);
    if (current) {
      current.again = true;
      return;
    }
    const flush = { running: Promise.resolve(), again: false };
    flush.running = (async () => {
      do {
        flush.again = false;
        // A failed flush (disk full, upload removed) is not this chunk's answer: the final fsync reports it.
        await syncFile(path.join(this.directory, id), 'r+').catch(() => {});
      } while (flush.again);
      this.flushes.delete(id);
    })();
    this.flushes.set(id, flush);
  }
}

/**
 * Upload records (size, metadata, creation date) kept in memory as well as in their JSON files. @tus/server
 * reads an upload's record on every request, and our owner check once more: two file reads per 6 MiB
 * chunk, each a few thread-pool round trips. The files stay the truth: written first, read when the
 * record is not in memory (after a restart), removed with the upload. Callers get a copy, since FileStore
 * changes the record it reads before writing it back (a deferred length).
 */
class RememberedRecords implements Configstore {
  private readonly records = new Map<string, Upload>();

  constructor(private readonly files: FileConfigstore) {}

  async get(id: string): Promise<Upload | undefined> {
    const remembered = this.records.get(id);
    if (remembered) return { ...remembered } as Upload;
    const record = await this.files.get(id);
    if (record) this.records.set(id, record);
    return record && ({ ...record } as Upload);
  }

  async set(id: string, record: Upload): Promise<void> {
    await this.files.set(id, record);
    this.records.set(id, { ...record } as Upload);
  }

  async delete(id: string): Promise<void> {
    this.records.delete(id);
    await this.files.delete(id);
  }

  list(): Promise<string[]> {
    return this.files.list();
  }
}
