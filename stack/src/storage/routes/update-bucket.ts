import { parseSize } from '../../project-config.ts';
import { asCaller } from '../access.ts';
import { json, readJson, type StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';

/** PUT /bucket/{id}: only the fields the body names change. */
export const updateBucket: StorageRoute = (app, { pool, caller }) =>
  app.put('/bucket/:id', async (c) => {
    const who = await caller(c);
    const body = await readJson(c);
    const { rowCount } = await asCaller(pool, who, 'storage.bucket.update', (db) =>
      db.query(
        `update storage.buckets set
           public = coalesce($2, public),
           file_size_limit = case when $3::boolean then $4::bigint else file_size_limit end,
           allowed_mime_types = case when $5::boolean then $6::text[] else allowed_mime_types end,
           updated_at = now()
         where id = $1`,
        [
          c.req.param('id'),
          typeof body.public === 'boolean' ? body.public : null,
          'file_size_limit' in body,
          body.file_size_limit === null || body.file_size_limit === undefined
            ? null
            : parseSize(body.file_size_limit, Number.NaN),
          'allowed_mime_types' in body,
          Array.isArray(body.allowed_mime_types) ? body.allowed_mime_types : null,
        ],
      ),
    );
    if (!rowCount) throw errors.noSuchBucket();
    return json(c, { message: 'Successfully updated' });
  });
