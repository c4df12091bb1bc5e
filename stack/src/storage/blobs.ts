import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { errors } from './errors.ts';

/**
 * Object bytes on local disk, one immutable file per object version. A version becomes visible only
 * through its storage.objects row, written after the bytes are complete: writes go to a temp file that is
 * fsynced and renamed into place, so no reader can ever see half a file, and an overwrite is a new version
 * whose row replaces the old one in one statement.
 */
export class BlobStore {
  readonly tmpDir: string;
  private readonly blobDir: string;
  private readonly discarding = new Set<Promise<void>>();

  constructor(root: string) {
    this.blobDir = path.join(root, 'blobs');
    this.tmpDir = path.join(root, 'tmp');
  }

  async init(): Promise<void> {
    await mkdir(this.blobDir, { recursive: true });
    await rm(this.tmpDir, { recursive: true, force: true });
    await mkdir(this.tmpDir, { recursive: true });
  }

  pathOf(version: string): string {
    if (!/^[0-9a-f-]{36}$/.test(version)) throw errors.noSuchKey();
    return path.join(this.blobDir, version.slice(0, 2), version);
  }

  /** Streams `body` into a new version; refuses (and discards) bodies over `maxBytes` as they arrive. */
  async write(body: Readable, maxBytes: number): Promise<{ version: string; size: number; etag: string }> {
    const version = randomUUID();
    const tmp = path.join(this.tmpDir, version);
    const md5 = createHash('md5');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) return callback(errors.tooLarge());
        md5.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(body, meter, createWriteStream(tmp));
      await this.commit(tmp, version);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    return { version, size, etag: md5.digest('hex') };
  }

  /**
   * Takes a finished file on the same disk (a completed TUS upload) in as a new version by hard link, so
   * the source stays intact until the caller has published the row and removes it.
   */
  async adopt(file: string): Promise<{ version: string; size: number }> {
    const version = randomUUID();
    const { size } = await stat(file);
    await syncFile(file, 'r+');
    const target = this.pathOf(version);
    await mkdir(path.dirname(target), { recursive: true });
    await link(file, target);
    await syncFile(path.dirname(target), 'r');
    return { version, size };
  }

  /** A second version sharing the same immutable bytes (copy). */
  async duplicate(version: string): Promise<string> {
    const copy = randomUUID();
    const target = this.pathOf(copy);
    await mkdir(path.dirname(target), { recursive: true });
    await link(this.pathOf(version), target);
    return copy;
  }

  read(version: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(version), range);
  }

  async remove(version: string | null | undefined): Promise<void> {
    if (version) await rm(this.pathOf(version), { force: true });
  }

  /**
   * Removes a version that a new one replaced, without making the request that replaced it wait: unlinking a
   * large file frees its extents, ~0.2 s for 1 GiB here, which the completing TUS PATCH spent before its 204.
   * The object's row already names the new version, so nothing can open the old one any more (a download
   * still reading it keeps its open file); a crash before the unlink leaves an unreferenced file, never a
   * missing one.
   */
  discard(version: string | null | undefined): void {
    if (!version) return;
    const removal: Promise<void> = this.remove(version)
      .catch(() => {})
      .finally(() => this.discarding.delete(removal));
    this.discarding.add(removal);
  }

  /** Waits for the removals `discard` started (the service's close). */
  async settle(): Promise<void> {
    await Promise.all([...this.discarding]);
  }

  private async commit(file: string, version: string): Promise<void> {
    await syncFile(file, 'r+');
    const target = this.pathOf(version);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(file, target);
    await syncFile(path.dirname(target), 'r');
  }
}

/** fsync a file (or, opened read-only, a directory so a rename into it is durable). */
export async function syncFile(file: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(file, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
