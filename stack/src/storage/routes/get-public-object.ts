import type { StorageRoute } from '../context.ts';
import { sendObject } from '../download.ts';
import { errors } from '../errors.ts';
import { getBucket, readableObject } from '../objects.ts';

/** GET|HEAD /object/public/{bucket}/{name}: any object of a public bucket, no token needed. */
export const getPublicObject: StorageRoute = (app, { pool, blobs }) =>
  app.get('/object/public/:bucket/:name{.+}', async (c) => {
    const { bucket: bucketId, name } = c.req.param();
    const bucket = await getBucket(pool, bucketId);
    if (!bucket.public) throw errors.noSuchBucket();
    return sendObject(c, blobs, await readableObject(pool, null, bucket, name));
  });
