import { ownerUuid, type Caller } from '../access.ts';
import { json, type StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';
import { getBucket } from '../objects.ts';
import { verifySigned } from '../signing.ts';
import { storeObject } from '../uploads.ts';

/** PUT /object/upload/sign/{bucket}/{name}?token=…: the upload its token allows, owned by who signed it. */
export const uploadToSignedUrl: StorageRoute = (app, deps) =>
  app.put('/object/upload/sign/:bucket/:name{.+}', async (c) => {
    const { bucket: bucketId, name } = c.req.param();
    const claims = await verifySigned(deps.ctx.jwtSecret, c.req.query('token'), `${bucketId}/${name}`);
    if (claims.scope !== 'upload') throw errors.invalidSignature();
    const bucket = await getBucket(deps.pool, bucketId);
    const owner = typeof claims.owner === 'string' ? claims.owner : null;
    const id = await storeObject(
      deps,
      c.env.incoming,
      { owner: ownerUuid({ sub: owner } as Caller), ownerId: owner },
      bucket,
      name,
      claims.upsert === true,
    );
    return json(c, { Key: `${bucketId}/${name}`, Id: id });
  });
