import type { StorageRoute } from '../context.ts';
import { sendObject } from '../download.ts';
import { getBucket, readableObject } from '../objects.ts';

/** GET|HEAD /object/[authenticated/]{bucket}/{name}: a download the caller's RLS allows. */
export const getObject: StorageRoute = (app, { pool, blobs, caller }) => {
  for (const path of ['/object/authenticated', '/object']) {
    app.get(`${path}/:bucket/:name{.+}`, async (c) => {
      const { bucket: bucketId, name } = c.req.param();
      const who = await caller(c, true);
      return sendObject(c, blobs, await readableObject(pool, who, await getBucket(pool, bucketId), name));
    });
  }
};
