import { ownerUuid } from '../access.ts';
import { json, type StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';
import { assertCanUpload, getBucket, sizeLimitOf, validateObjectName } from '../objects.ts';
import { storeObject } from '../uploads.ts';

/**
 * POST (create) and PUT (upsert) /object/{bucket}/{name}: the body streams from the Node request to the blob
 * store; a declared size over the limit is refused before a byte is read.
 */
export const uploadObject: StorageRoute = (app, deps) =>
  app.on(['POST', 'PUT'], '/object/:bucket/:name{.+}', async (c) => {
    const { bucket: bucketId, name } = c.req.param();
    const who = await deps.caller(c);
    validateObjectName(name);
    const bucket = await getBucket(deps.pool, bucketId);
    const upsert = c.req.method === 'PUT' || c.req.header('x-upsert') === 'true';
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > sizeLimitOf(bucket, deps.config.fileSizeLimit) + 64 * 1024) throw errors.tooLarge();
    await assertCanUpload(deps.pool, who, bucket.id, name, upsert);
    const id = await storeObject(
      deps,
      c.env.incoming,
      { owner: ownerUuid(who), ownerId: who.sub },
      bucket,
      name,
      upsert,
    );
    return json(c, { Id: id, Key: `${bucketId}/${name}` });
  });
