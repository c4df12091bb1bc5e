import type { StorageRoute } from '../context.ts';
import { json } from '../context.ts';
import { assertCanUpload, getBucket, validateObjectName } from '../objects.ts';
import { signedToken } from '../signing.ts';

/** POST /object/upload/sign/{bucket}/{name}: a two-hour upload token, checked against RLS now. */
export const createSignedUploadUrl: StorageRoute = (app, { ctx, pool, caller }) =>
  app.post('/object/upload/sign/:bucket/:name{.+}', async (c) => {
    const { bucket: bucketId, name } = c.req.param();
    const who = await caller(c);
    validateObjectName(name);
    await getBucket(pool, bucketId);
    const upsert = c.req.header('x-upsert') === 'true';
    await assertCanUpload(pool, who, bucketId, name, upsert);
    const token = await signedToken(
      ctx.jwtSecret,
      { owner: who.sub, url: `${bucketId}/${name}`, upsert, scope: 'upload' },
      2 * 60 * 60,
    );
    return json(c, { url: `/object/upload/sign/${bucketId}/${name}?token=${token}`, token });
  });
