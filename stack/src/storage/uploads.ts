import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import busboy from 'busboy';
import type { StorageDeps } from './context.ts';
import { MAX_JSON_BODY } from './context.ts';
import { errors } from './errors.ts';
import { checkBucketLimits, objectMetadata, publishObject, sizeLimitOf, type BucketRow } from './objects.ts';

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** storage-js sends `cacheControl` as seconds; Supabase stores `max-age=<n>` (absent → no-cache). */
function normalizeCacheControl(value: string | undefined | null): string {
  if (!value) return 'no-cache';
  if (/^\d+$/.test(value)) return `max-age=${value}`;
  return value;
}

function decodeUserMetadata(value: string | undefined): Record<string, unknown> | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    throw errors.invalidRequest('x-metadata must be base64-encoded JSON');
  }
}

interface UploadBody {
  stream: Readable;
  mimetype: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

/** The bytes of an upload: the first file part of a multipart form, or the raw body. Never buffered. */
function uploadBody(req: IncomingMessage): Promise<UploadBody> {
  const contentType = header(req, 'content-type') ?? 'application/octet-stream';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    return Promise.resolve({
      // Through a pipe, so a refusal mid-stream (too large, disk full) ends this stream, not the request: the
      // rest of the body is drained and the client reads the error instead of a reset connection.
      stream: req.pipe(new PassThrough()),
      mimetype: contentType,
      cacheControl: normalizeCacheControl(header(req, 'cache-control')?.replace(/^max-age=(\d+)$/, '$1')),
      userMetadata: decodeUserMetadata(header(req, 'x-metadata')),
    });
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fieldSize: MAX_JSON_BODY } });
    } catch (error) {
      reject(errors.invalidRequest((error as Error).message));
      return;
    }
    let found = false;
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (_name, stream, info) => {
      found = true;
      let userMetadata: Record<string, unknown> | null;
      try {
        userMetadata = fields.metadata ? (JSON.parse(fields.metadata) as Record<string, unknown>) : null;
      } catch {
        reject(errors.invalidRequest('metadata must be JSON'));
        return;
      }
      resolve({
        stream,
        mimetype: fields.contentType || info.mimeType || 'application/octet-stream',
        cacheControl: normalizeCacheControl(fields.cacheControl),
        userMetadata,
      });
    });
    parser.on('error', (error) => reject(errors.invalidRequest((error as Error).message)));
    parser.on('close', () => {
      if (!found) reject(errors.invalidRequest('No file found in the multipart form'));
    });
    req.pipe(parser);
  });
}

/**
 * Streams an upload from the Node request into the blob store, then publishes the row; on any failure the
 * new bytes are removed again.
 */
export async function storeObject(
  { pool, blobs, config }: StorageDeps,
  req: IncomingMessage,
  who: { owner: string | null; ownerId: string | null },
  bucket: BucketRow,
  name: string,
  upsert: boolean,
): Promise<string> {
  const body = await uploadBody(req);
  const globalLimit = config.fileSizeLimit;
  checkBucketLimits(bucket, globalLimit, Number(header(req, 'content-length') ?? 0) || null, body.mimetype);
  const stored = await blobs.write(body.stream, sizeLimitOf(bucket, globalLimit));
  try {
    const published = await publishObject(pool, {
      bucketId: bucket.id,
      name,
      version: stored.version,
      owner: who.owner,
      ownerId: who.ownerId,
      metadata: objectMetadata(stored.size, stored.etag, body.mimetype, body.cacheControl),
      userMetadata: body.userMetadata,
      upsert,
    });
    blobs.discard(published.replacedVersion);
    return published.id;
  } catch (error) {
    await blobs.remove(stored.version);
    throw error;
  }
}
