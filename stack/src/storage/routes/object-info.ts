import { json, type StorageRoute } from '../context.ts';
import { getBucket, objectInfo, readableObject } from '../objects.ts';

/** GET /object/info/[authenticated/|public/]{bucket}/{name}: the object's row as storage-js `info` reads it. */
export const objectInfoRoute: StorageRoute = (app, { pool, caller }) => {
  for (const path of ['/object/info/authenticated', '/object/info/public', '/object/info']) {
    app.get(`${path}/:bucket/:name{.+}`, async (c) => {
      const { bucket: bucketId, name } = c.req.param();
      const who = await caller(c, true);
      return json(c, objectInfo(await readableObject(pool, who, await getBucket(pool, bucketId), name)));
    });
  }
};
