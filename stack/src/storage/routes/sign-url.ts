import { json, readJson, type StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';
import { objectAsCaller } from '../objects.ts';
import { parseTransformQuery } from '../render.ts';
import { expiresInOf, signedToken, transformToClaim } from '../signing.ts';

/**
 * POST /object/sign/{bucket}/{name} {expiresIn, transform?}: a signed download (or render) URL. As storage-api's
 * signObjectUrl, the caller must be able to select the object under RLS, in a public bucket too (downloads of
 * public objects skip RLS; signing them does not), and the bucket itself is not looked up.
 */
export const signUrl: StorageRoute = (app, { ctx, pool, caller }) =>
  app.post('/object/sign/:bucket/:name{.+}', async (c) => {
    const { bucket: bucketId, name } = c.req.param();
    const who = await caller(c);
    const body = await readJson(c);
    const expiresIn = expiresInOf(body);
    if (!(await objectAsCaller(pool, who, 'storage.object.sign', bucketId, name))) throw errors.noSuchKey();
    const transform = body.transform
      ? parseTransformQuery(new URLSearchParams(Object.entries(body.transform as Record<string, string>)))
      : null;
    const token = await signedToken(
      ctx.jwtSecret,
      { url: `${bucketId}/${name}`, transformations: transformToClaim(transform) },
      expiresIn,
    );
    const base = transform ? '/render/image/sign' : '/object/sign';
    return json(c, { signedURL: `${base}/${bucketId}/${name}?token=${token}` });
  });
