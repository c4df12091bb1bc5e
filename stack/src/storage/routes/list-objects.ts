import { asCaller } from '../access.ts';
import { json, readJson, type StorageRoute } from '../context.ts';
import { getBucket } from '../objects.ts';

const SORT_COLUMNS = ['name', 'updated_at', 'created_at', 'last_accessed_at'];

/**
 * POST /object/list/{bucket} (storage-js `list`): the entries directly under `prefix`, folders (null id and
 * metadata) folded at the next `/`, with search, sorting and paging as storage-api's `search` function.
 */
export const listObjects: StorageRoute = (app, { pool, caller }) =>
  app.post('/object/list/:bucket', async (c) => {
    const bucketId = c.req.param('bucket');
    const who = await caller(c);
    await getBucket(pool, bucketId);
    const body = await readJson(c);
    let prefix = typeof body.prefix === 'string' ? body.prefix : '';
    if (prefix && !prefix.endsWith('/')) prefix += '/';
    const limit = Math.min(Math.max(Number(body.limit ?? 100), 1), 1500);
    const offset = Math.max(Number(body.offset ?? 0), 0);
    const search = typeof body.search === 'string' ? body.search : '';
    const sortBy = (body.sortBy ?? {}) as { column?: string; order?: string };
    const column = SORT_COLUMNS.includes(sortBy.column ?? '') ? sortBy.column! : 'name';
    const order = sortBy.order?.toLowerCase() === 'desc' ? 'desc' : 'asc';
    const like = `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const { rows } = await asCaller(pool, who, 'storage.object.list', (db) =>
      db.query(
        `select name, id, updated_at, created_at, last_accessed_at, metadata from (
           select distinct on (item) item as name,
             case when is_folder then null else id end as id,
             case when is_folder then null else updated_at end as updated_at,
             case when is_folder then null else created_at end as created_at,
             case when is_folder then null else last_accessed_at end as last_accessed_at,
             case when is_folder then null else metadata end as metadata
           from (
             select split_part(substr(o.name, $3), '/', 1) as item, strpos(substr(o.name, $3), '/') > 0 as is_folder,
                    o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata
               from storage.objects o
              where o.bucket_id = $1 and o.name like $2 escape '\\'
           ) entries
           where $4 = '' or item ilike $4 || '%'
           order by item, is_folder desc
         ) listed
         order by ${column} ${order} nulls first, name ${order}
         limit $5 offset $6`,
        [bucketId, like, prefix.length + 1, search, limit, offset],
      ),
    );
    return json(c, rows);
  });
