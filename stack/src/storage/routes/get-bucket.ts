import { asCaller } from '../access.ts';
import { json, type StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';
import { BUCKET_COLUMNS, bucketJson } from './bucket-columns.ts';

/** GET /bucket/{id}. */
export const getBucketRoute: StorageRoute = (app, { pool, caller }) =>
  app.get('/bucket/:id', async (c) => {
    const who = await caller(c);
    const { rows } = await asCaller(pool, who, 'storage.bucket.get', (db) =>
      db.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [c.req.param('id')]),
    );
    if (!rows[0]) throw errors.noSuchBucket();
    return json(c, bucketJson(rows[0]));
  });
