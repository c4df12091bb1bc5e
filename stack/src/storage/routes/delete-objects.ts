import { asCaller } from '../access.ts';
import { json, readJson, type StorageRoute } from '../context.ts';
import { getBucket, OBJECT_COLUMNS, type ObjectRow } from '../objects.ts';

/** DELETE /object/{bucket} {prefixes}: removes the named objects the caller may delete, returns their rows. */
export const deleteObjects: StorageRoute = (app, { pool, blobs, caller }) =>
  app.delete('/object/:bucket', async (c) => {
    const bucketId = c.req.param('bucket');
    const who = await caller(c);
    await getBucket(pool, bucketId);
    const body = await readJson(c);
    const names = Array.isArray(body.prefixes) ? (body.prefixes as string[]) : [];
    const { rows } = await asCaller(pool, who, 'storage.object.delete_many', (db) =>
      db.query<ObjectRow>(
        `delete from storage.objects where bucket_id = $1 and name = any($2) returning ${OBJECT_COLUMNS}`,
        [bucketId, names],
      ),
    );
    await Promise.all(rows.map((row) => blobs.remove(row.version)));
    return json(c, rows);
  });
