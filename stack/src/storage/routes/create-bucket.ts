import { parseSize } from '../../project-config.ts';
import { asCaller, ownerUuid } from '../access.ts';
import { json, readJson, type StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';

/** POST /bucket: as the caller, so only the service role (or a policy) may create buckets. */
export const createBucket: StorageRoute = (app, { pool, caller }) =>
  app.post('/bucket', async (c) => {
    const who = await caller(c);
    const body = await readJson(c);
    const name = typeof body.name === 'string' ? body.name : '';
    const id = typeof body.id === 'string' && body.id ? body.id : name;
    if (!/^[A-Za-z0-9_.-]{1,100}$/.test(id)) throw errors.invalidRequest(`Bucket name invalid`);
    await asCaller(pool, who, 'storage.bucket.create', (db) =>
      db.query(
        `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [
          id,
          name || id,
          ownerUuid(who),
          who.sub,
          body.public === true,
          body.file_size_limit === undefined || body.file_size_limit === null
            ? null
            : parseSize(body.file_size_limit, Number.NaN),
          Array.isArray(body.allowed_mime_types) ? body.allowed_mime_types : null,
        ],
      ),
    );
    return json(c, { name: id });
  });
