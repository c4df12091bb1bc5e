import { asCaller } from '../access.ts';
import { json, type StorageRoute } from '../context.ts';
import { getBucket } from '../objects.ts';

/** POST /bucket/{id}/empty: the objects the caller may delete go, with their bytes. */
export const emptyBucket: StorageRoute = (app, { pool, blobs, caller }) =>
  app.post('/bucket/:id/empty', async (c) => {
    const id = c.req.param('id');
    const who = await caller(c);
    await getBucket(pool, id);
    const { rows } = await asCaller(pool, who, 'storage.bucket.empty', (db) =>
      db.query<{ version: string | null }>('delete from storage.objects where bucket_id = $1 returning version', [id]),
    );
    await Promise.all(rows.map((row) => blobs.remove(row.version)));
    // storage-api queues the deletion and says so; here it is already done, but clients see the same text.
    return json(c, { message: 'Empty bucket has been queued. Completion may take up to an hour.' });
  });
