import type { StorageRoute } from '../context.ts';
import { sendObject } from '../download.ts';
import { getBucket, readableObject } from '../objects.ts';
import { verifySigned } from '../signing.ts';

/** GET /object/sign/{bucket}/{name}?token=…: the token alone grants the download. */
export const getSignedObject: StorageRoute = (app, { ctx, pool, blobs }) =>
  app.get('/object/sign/:bucket/:name{.+}', async (c) => {
    const { bucket: bucketId, name } = c.req.param();
    await verifySigned(ctx.jwtSecret, c.req.query('token'), `${bucketId}/${name}`);
    return sendObject(c, blobs, await readableObject(pool, null, await getBucket(pool, bucketId), name));
  });
