import { json, readJson, type StorageRoute } from '../context.ts';
import { getBucket, readableObject } from '../objects.ts';
import { parseTransformQuery } from '../render.ts';
import { expiresInOf, signedToken, transformToClaim } from '../signing.ts';

/** POST /object/sign/{bucket}/{name} {expiresIn, transform?}: a signed download (or render) URL. */
export const signUrl: StorageRoute = (app, { ctx, pool, caller }) =>
  app.post('/object/sign/:bucket/:name{.+}', async (c) => {
    const { bucket: bucketId, name } = c.req.param();
    const who = await caller(c);
    const body = await readJson(c);
    const expiresIn = expiresInOf(body);
    await readableObject(pool, who, await getBucket(pool, bucketId), name);
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
