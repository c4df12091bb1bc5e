import { asCaller } from '../access.ts';
import { json, type StorageRoute } from '../context.ts';
import { BUCKET_COLUMNS, bucketJson } from './bucket-columns.ts';

const SORT_COLUMNS = ['id', 'name', 'created_at', 'updated_at'];

/** GET /bucket: the buckets the caller may see, with storage-js's paging, sorting and search. */
export const listBuckets: StorageRoute = (app, { pool, caller }) =>
  app.get('/bucket', async (c) => {
    const who = await caller(c);
    const limit = Number(c.req.query('limit') ?? 0);
    const offset = Number(c.req.query('offset') ?? 0);
    const requestedSort = c.req.query('sortColumn') ?? '';
    const sortColumn = SORT_COLUMNS.includes(requestedSort) ? requestedSort : 'name';
    const sortOrder = c.req.query('sortOrder') === 'desc' ? 'desc' : 'asc';
    const search = c.req.query('search') ?? '';
    const { rows } = await asCaller(pool, who, 'storage.bucket.list', (db) =>
      db.query(
        `select ${BUCKET_COLUMNS}
           from storage.buckets where ($1 = '' or name ilike '%' || $1 || '%')
          order by ${sortColumn} ${sortOrder} ${limit > 0 ? `limit ${limit}` : ''} offset ${Math.max(0, offset)}`,
        [search],
      ),
    );
    return json(c, rows.map(bucketJson));
  });
