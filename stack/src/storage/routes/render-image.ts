import { alreadySent } from '../../http/mount.ts';
import type { StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';
import { getBucket, readableObject, type ObjectRow } from '../objects.ts';
import { parseTransformQuery } from '../render.ts';
import { transformFromClaim, verifySigned } from '../signing.ts';

/**
 * GET /render/image/{authenticated|public|sign}/{bucket}/{name}: an image transformation (when config.toml
 * enables them); a signed URL carries its transformation in the token.
 */
export const renderImage: StorageRoute = (app, { ctx, pool, config, renderer, caller }) =>
  app.get('/render/image/:mode{authenticated|public|sign}/:bucket/:name{.+}', async (c) => {
    if (!config.imageTransformationEnabled) throw errors.routeNotFound(c.req.method, c.req.path);
    const { mode, bucket: bucketId, name } = c.req.param();
    const bucket = await getBucket(pool, bucketId);
    let transform = parseTransformQuery(new URL(c.req.url).searchParams);
    let row: ObjectRow;
    if (mode === 'public') {
      if (!bucket.public) throw errors.noSuchBucket();
      row = await readableObject(pool, null, bucket, name);
    } else if (mode === 'sign') {
      const claims = await verifySigned(ctx.jwtSecret, c.req.query('token'), `${bucketId}/${name}`);
      if (typeof claims.transformations === 'string') {
        transform = parseTransformQuery(transformFromClaim(claims.transformations));
      }
      row = await readableObject(pool, null, bucket, name);
    } else {
      row = await readableObject(pool, await caller(c, true), bucket, name);
    }
    await renderer.render(c.env.incoming, c.env.outgoing, row, transform);
    return alreadySent;
  });
