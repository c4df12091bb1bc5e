import { asCaller } from '../access.ts';
import { json, readJson, type StorageRoute } from '../context.ts';
import { expiresInOf, signedToken } from '../signing.ts';

/** POST /object/sign/{bucket} {paths, expiresIn}: one signed URL per path the caller may read, an error per other. */
export const signUrls: StorageRoute = (app, { ctx, pool, caller }) =>
  app.post('/object/sign/:bucket', async (c) => {
    const bucketId = c.req.param('bucket');
    const who = await caller(c);
    const body = await readJson(c);
    const paths = Array.isArray(body.paths) ? (body.paths as string[]) : [];
    const expiresIn = expiresInOf(body);
    const { rows } = await asCaller(pool, who, 'storage.object.sign', (db) =>
      db.query<{ name: string }>('select name from storage.objects where bucket_id = $1 and name = any($2)', [
        bucketId,
        paths,
      ]),
    );
    const visible = new Set(rows.map((r) => r.name));
    const signed = await Promise.all(
      paths.map(async (p) =>
        visible.has(p)
          ? {
              error: null,
              path: p,
              signedURL: `/object/sign/${bucketId}/${p}?token=${await signedToken(ctx.jwtSecret, { url: `${bucketId}/${p}` }, expiresIn)}`,
            }
          : { error: 'Either the object does not exist or you do not have access to it', path: p, signedURL: null },
      ),
    );
    return json(c, signed);
  });
