import { Hono } from 'hono';
import type { MountedService, ServiceContext } from '../service.ts';
import type { ProjectConfig } from '../project-config.ts';
import { drainUnreadBody } from '../http/body.ts';
import { alreadySent, errorHandler, mountHono, type NodeEnv } from '../http/mount.ts';
import { authenticate } from './access.ts';
import { BlobStore } from './blobs.ts';
import type { StorageDeps, StorageRoute } from './context.ts';
import { errors, isNoSpaceError, storageErrorResponse, StorageError } from './errors.ts';
import { createImageRenderer } from './render.ts';
import { createTusHandler } from './tus.ts';
import { listBuckets } from './routes/list-buckets.ts';
import { getBucketRoute } from './routes/get-bucket.ts';
import { createBucket } from './routes/create-bucket.ts';
import { updateBucket } from './routes/update-bucket.ts';
import { emptyBucket } from './routes/empty-bucket.ts';
import { deleteBucket } from './routes/delete-bucket.ts';
import { listObjectsV2Route } from './routes/list-objects-v2.ts';
import { listObjects } from './routes/list-objects.ts';
import { moveObject } from './routes/move-object.ts';
import { copyObject } from './routes/copy-object.ts';
import { signUrls } from './routes/sign-urls.ts';
import { signUrl } from './routes/sign-url.ts';
import { getSignedObject } from './routes/get-signed-object.ts';
import { createSignedUploadUrl } from './routes/create-signed-upload-url.ts';
import { uploadToSignedUrl } from './routes/upload-to-signed-url.ts';
import { objectInfoRoute } from './routes/object-info.ts';
import { getPublicObject } from './routes/get-public-object.ts';
import { getObject } from './routes/get-object.ts';
import { uploadObject } from './routes/upload-object.ts';
import { deleteObjects } from './routes/delete-objects.ts';
import { deleteObject } from './routes/delete-object.ts';
import { renderImage } from './routes/render-image.ts';

/**
 * The Storage API that @supabase/storage-js and TUS clients use
 * Every object and bucket statement runs as the caller, so policies written for Supabase decide;
 * bytes live in an immutable per-version blob store and become visible only with their row.
 * One route per file under routes/.
 */

/**
 * In the order they are tried: the more specific paths first (`/object/sign/b/x` before `/object/{bucket}/x`,
 * `/object/list/b` before an upload to a bucket named `list`).
 */
const ROUTES: StorageRoute[] = [
  listBuckets,
  getBucketRoute,
  createBucket,
  updateBucket,
  emptyBucket,
  deleteBucket,
  listObjectsV2Route,
  listObjects,
  moveObject,
  copyObject,
  signUrls,
  signUrl,
  getSignedObject,
  createSignedUploadUrl,
  uploadToSignedUrl,
  objectInfoRoute,
  getPublicObject,
  getObject,
  uploadObject,
  deleteObjects,
  deleteObject,
  renderImage,
];

export async function createStorageService(
  ctx: ServiceContext,
  config: ProjectConfig['storage'],
): Promise<MountedService> {
  const pool = ctx.adminPool;
  const blobs = new BlobStore(ctx.dataDir);
  await blobs.init();
  const deps: StorageDeps = {
    ctx,
    pool,
    blobs,
    config,
    renderer: await createImageRenderer(ctx, blobs),
    caller: (c, allowInvalid = false) => authenticate(c.env.incoming, ctx.jwtKeys, ctx.anonKey, { allowInvalid }),
  };
  const tus = await createTusHandler(ctx, { pool, blobs, globalLimit: config.fileSizeLimit });

  const app = new Hono<NodeEnv>({ strict: false });
  app.use(async (c, next) => {
    try {
      decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      throw errors.invalidRequest('Malformed path');
    }
    // TUS (@tus/server) reads and answers the Node request itself.
    if (c.req.path.startsWith('/upload/resumable')) {
      await tus.handle(c.env.incoming, c.env.outgoing, c.env.incoming.url ?? c.req.path);
      return alreadySent;
    }
    await next();
  });
  for (const route of ROUTES) route(app, deps);
  app.notFound((c) => storageErrorResponse(c, errors.routeNotFound(c.req.method, new URL(c.req.url).pathname)));
  app.onError(
    errorHandler((error, c) => {
      const refusal = error instanceof StorageError ? error : isNoSpaceError(error) ? errors.noSpace() : null;
      if (refusal) {
        drainUnreadBody(c.env.incoming, c.env.outgoing);
        return storageErrorResponse(c, refusal);
      }
      ctx.log(`unexpected error: ${error.stack ?? String(error)}`);
      return storageErrorResponse(c, errors.internal());
    }),
  );

  return mountHono(app, {
    close: async () => {
      await tus.close();
      await blobs.settle();
    },
  });
}
