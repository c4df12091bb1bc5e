import { asCaller } from '../access.ts';
import { json, readJson, type StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';
import { getBucket } from '../objects.ts';
import { transferOf } from './transfer-body.ts';

/** POST /object/move: renames the row (the bytes stay where they are), as the caller. */
export const moveObject: StorageRoute = (app, { pool, caller }) =>
  app.post('/object/move', async (c) => {
    const who = await caller(c);
    const { bucketId, sourceKey, destinationKey, destinationBucket } = transferOf(await readJson(c));
    await getBucket(pool, bucketId);
    await getBucket(pool, destinationBucket);
    const { rows } = await asCaller(pool, who, 'storage.object.move', (db) =>
      db.query<{ id: string }>(
        `update storage.objects set bucket_id = $3, name = $4, updated_at = now()
          where bucket_id = $1 and name = $2 returning id`,
        [bucketId, sourceKey, destinationBucket, destinationKey],
      ),
    );
    if (!rows[0]) throw errors.noSuchKey();
    return json(c, { message: 'Successfully moved', Id: rows[0].id, Key: destinationKey });
  });
