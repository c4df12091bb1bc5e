import { asCaller } from '../access.ts';
import { json, type StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';
import { getBucket } from '../objects.ts';

/** DELETE /bucket/{id}: only an empty bucket. */
export const deleteBucket: StorageRoute = (app, { pool, caller }) =>
  app.delete('/bucket/:id', async (c) => {
    const id = c.req.param('id');
    const who = await caller(c);
    await getBucket(pool, id);
    const { rows } = await pool.query('select 1 from storage.objects where bucket_id = $1 limit 1', [id]);
    if (rows.length > 0) throw errors.bucketNotEmpty();
    const { rowCount } = await asCaller(pool, who, 'storage.bucket.delete', (db) =>
      db.query('delete from storage.buckets where id = $1', [id]),
    );
    if (!rowCount) throw errors.accessDenied();
    return json(c, { message: 'Successfully deleted' });
  });
