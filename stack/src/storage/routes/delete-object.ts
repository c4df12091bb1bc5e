import { asCaller } from '../access.ts';
import { json, type StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';
import { getBucket, OBJECT_COLUMNS, type ObjectRow } from '../objects.ts';

/** DELETE /object/{bucket}/{name}. */
export const deleteObject: StorageRoute = (app, { pool, blobs, caller }) =>
  app.delete('/object/:bucket/:name{.+}', async (c) => {
    const { bucket: bucketId, name } = c.req.param();
    const who = await caller(c);
    await getBucket(pool, bucketId);
    const { rows } = await asCaller(pool, who, 'storage.object.delete', (db) =>
      db.query<ObjectRow>(
        `delete from storage.objects where bucket_id = $1 and name = $2 returning ${OBJECT_COLUMNS}`,
        [bucketId, name],
      ),
    );
    if (!rows[0]) throw errors.noSuchKey();
    await blobs.remove(rows[0].version);
    return json(c, { message: 'Successfully deleted' });
  });
