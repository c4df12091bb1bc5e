import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Pool } from 'pg';
import { Server, type ServerOptions } from '@tus/server';
import type { Upload } from '@tus/utils';
import type { ServiceContext } from '../service.ts';
import { bearerToken, verifyJwt } from '../jwt.ts';
import { ownerUuid, type Caller } from './access.ts';
import type { BlobStore } from './blobs.ts';
import { TusFileStore } from './tus-file-store.ts';
import { writeBodiesStraightToFile } from './tus-request-body.ts';
import { StorageError, errors, isNoSpaceError } from './errors.ts';
import {
  assertCanUpload,
  checkBucketLimits,
  getBucket,
  objectMetadata,
  publishObject,
  validateObjectName,
} from './objects.ts';

/**
 * TUS resumable uploads at /storage/v1/upload/resumable, as Supabase Storage serves them: @tus/server with
 * a file store under the stack's data dir (so an upload survives a dropped connection and a restart of the
 * whole stack), the caller's right to write checked at creation and again on every request, and the
 * object row written only when the last byte has landed.
 */

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];
const UPLOAD_URL_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** tus errors are plain text with the semantic status (403 RLS, 409 duplicate, 404 bucket, 413, 415). */
const tusError = (status: number, body: string) => ({ status_code: status, body });
const fromStorageError = (error: unknown) =>
  error instanceof StorageError ? tusError(error.statusCode, error.message) : error;
const noSpace = errors.noSpace();

/** The upload id Supabase uses: base64url of bucket/object/version, so it says what is being written. */
const encodeId = (bucket: string, object: string, version: string) =>
  Buffer.from(`${bucket}/${object}/${version}`, 'utf8').toString('base64url');

export async function createTusHandler(
  ctx: ServiceContext,
  deps: { pool: Pool; blobs: BlobStore; globalLimit: number },
) {
  const { pool, blobs, globalLimit } = deps;
  const directory = path.join(ctx.dataDir, 'tus');

  const callerOf = async (req: TusRequest): Promise<Caller> => {
    const token = bearerToken(req.headers.get('authorization') ?? undefined) ?? ctx.anonKey;
    try {
      const claims = await verifyJwt(token, ctx.jwtKeys);
      const role = claims.role;
      if (role !== 'anon' && role !== 'authenticated' && role !== 'service_role') throw new Error('role not allowed');
      return { role, claims, jwt: token, sub: typeof claims.sub === 'string' ? claims.sub : null };
    } catch (error) {
      throw tusError(403, (error as Error).message);
    }
  };

  const checkUpload = async (req: TusRequest, upload: Pick<Upload, 'size' | 'metadata'>, caller: Caller) => {
    const bucketName = upload.metadata?.bucketName;
    const objectName = upload.metadata?.objectName;
    if (!bucketName || !objectName) throw tusError(400, 'Upload-Metadata must include bucketName and objectName');
    try {
      validateObjectName(objectName);
      const bucket = await getBucket(pool, bucketName);
      checkBucketLimits(
        bucket,
        globalLimit,
        upload.size ?? null,
        upload.metadata?.contentType || 'application/octet-stream',
      );
      await assertCanUpload(pool, caller, bucket.id, objectName, req.headers.get('x-upsert') === 'true');
    } catch (error) {
      throw fromStorageError(error);
    }
  };

  const datastore = new TusFileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_URL_LIFETIME_MS });

  const server = new Server({
    path: '/upload/resumable',
    datastore,
    respectForwardedHeaders: true,
    maxSize: globalLimit,
    allowedHeaders: ['Authorization', 'X-Upsert', 'Upload-Expires', 'ApiKey', 'x-signature'],
    disableTerminationForFinishedUploads: true,
    namingFunction: (_req, metadata) => {
      const bucket = metadata?.bucketName;
      const object = metadata?.objectName;
      if (!bucket || !object) throw tusError(400, 'Upload-Metadata must include bucketName and objectName');
      return encodeId(bucket, object, randomUUID());
    },
    generateUrl: (req, { proto, host, id }) => {
      const prefix = req.headers.get('x-forwarded-prefix') ?? '';
      return `${proto}://${host}${prefix}/upload/resumable/${id}`;
    },
    getFileIdFromRequest: (_req, lastPath) => lastPath,
    // A full disk mid-chunk: the bytes that did land stay (the offset says how many), the client may resume later.
    onResponseError: async (_req, error) =>
      isNoSpaceError(error) ? tusError(noSpace.statusCode, noSpace.message) : undefined,
    onUploadCreate: async (req, upload) => {
      const caller = await callerOf(req);
      await checkUpload(req, upload, caller);
      // Who created the upload, so only they may continue it.
      return {
        metadata: { ...upload.metadata, owner: caller.sub ?? '', upsert: req.headers.get('x-upsert') ?? 'false' },
      };
    },
    onIncomingRequest: async (req, uploadId) => {
      if (req.method !== 'PATCH') {
        await callerOf(req);
        return;
      }
      const caller = await callerOf(req);
      // Its bytes are stored already: there is nothing left to append to.
      if (datastore.isFinished(uploadId)) throw tusError(409, 'The upload is already complete');
      // The record alone (kept in memory): @tus/server reads the upload's offset from the file right after.
      const upload = await datastore.record(uploadId).catch(() => undefined);
      if (!upload) return; // @tus/server answers 404 itself
      if ((upload.metadata?.owner ?? '') !== (caller.sub ?? ''))
        throw tusError(403, 'This upload belongs to another user');
      // The bucket's rules and the RLS insert check ran at creation; they run again for the PATCH that
      // completes the upload (the object appears then), not for each of a 1 GiB upload's 171 chunks.
      const offset = Number(req.headers.get('upload-offset'));
      const length = Number(req.headers.get('content-length'));
      const completes = upload.size === undefined || !(offset + length < upload.size);
      if (completes) await checkUpload(req, upload, caller);
    },
    onUploadFinish: async (_req, upload) => {
      const metadata = upload.metadata ?? {};
      const bucketName = metadata.bucketName!;
      const objectName = metadata.objectName!;
      const contentType = metadata.contentType || 'application/octet-stream';
      const cacheControl = metadata.cacheControl
        ? /^\d+$/.test(metadata.cacheControl)
          ? `max-age=${metadata.cacheControl}`
          : 'no-cache'
        : 'no-cache';
      let userMetadata: Record<string, unknown> | null;
      try {
        userMetadata = metadata.metadata ? (JSON.parse(metadata.metadata) as Record<string, unknown>) : null;
      } catch {
        userMetadata = null;
      }
      await datastore.flushed(upload.id);
      const stored = await blobs.adopt(path.join(directory, upload.id));
      try {
        const owner = metadata.owner || null;
        const published = await publishObject(pool, {
          bucketId: bucketName,
          name: objectName,
          version: stored.version,
          owner: ownerUuid(owner ? ({ sub: owner } as Caller) : null),
          ownerId: owner,
          metadata: objectMetadata(stored.size, stored.version, contentType, cacheControl),
          userMetadata,
          upsert: metadata.upsert === 'true',
        });
        blobs.discard(published.replacedVersion);
      } catch (error) {
        await blobs.remove(stored.version);
        throw fromStorageError(error);
      }
      datastore.markFinished(upload, UPLOAD_URL_LIFETIME_MS);
      await datastore.remove(upload.id).catch(() => {});
      // Hosted Storage says so on the response that completes an upload.
      return { headers: { 'Tus-Complete': '1' } };
    },
  });

  writeBodiesStraightToFile(server, datastore);

  const cleanup = setInterval(
    () => {
      server.cleanUpExpiredUploads().catch((error: unknown) => ctx.log(`tus cleanup: ${(error as Error).message}`));
    },
    60 * 60 * 1000,
  );
  cleanup.unref();

  return {
    async handle(req: IncomingMessage, res: ServerResponse, subpath: string) {
      req.url = subpath;
      await server.handle(req, res);
    },
    async close() {
      clearInterval(cleanup);
    },
  };
}
