import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import busboy from 'busboy';
import type { MountedService, ServiceContext } from '../service.ts';
import type { ProjectConfig } from '../project-config.ts';
import { parseSize } from '../project-config.ts';
import { signJwt, verifyJwt, isExpiredError } from '../jwt.ts';
import { asCaller, authenticate, ownerUuid, type Caller } from './access.ts';
import { BlobStore } from './blobs.ts';
import { errors, isNoSpaceError, sendJson, sendStorageError, StorageError } from './errors.ts';
import {
  assertCanUpload,
  checkBucketLimits,
  getBucket,
  objectInfo,
  objectMetadata,
  OBJECT_COLUMNS,
  publishObject,
  readableObject,
  sizeLimitOf,
  validateObjectName,
  type BucketRow,
  type ObjectRow,
} from './objects.ts';
import { createTusHandler } from './tus.ts';
import { listObjectsV2 } from './list-v2.ts';
import { safetyHeaders, servedContentType } from './serving.ts';
import { createImageRenderer, parseTransformQuery, type Transform } from './render.ts';

/**
 * The Storage API that @supabase/storage-js and TUS clients use (LOCAL_STACK_CONTRACT.md sections 4 and
 * 5). Every object and bucket statement runs as the caller, so policies written for Supabase decide;
 * bytes live in an immutable per-version blob store and become visible only with their row.
 */

const MAX_JSON_BODY = 1024 * 1024;

/**
 * A JSON body of at most 1 MB. An oversized one is refused as soon as it passes the limit, while the rest of it
 * is still read and discarded: destroying the request instead would take the keep-alive connection with it
 * mid-response, and the client's next request on that connection would hang.
 */
function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_JSON_BODY) {
        chunks.length = 0;
        reject(errors.invalidRequest('Body too large'));
      } else chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > MAX_JSON_BODY) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (!text.trim()) return resolve({});
      try {
        const value: unknown = JSON.parse(text);
        if (value && typeof value === 'object' && !Array.isArray(value))
          return resolve(value as Record<string, unknown>);
      } catch {
        // fall through
      }
      reject(errors.invalidRequest('Body is not valid JSON'));
    });
  });
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** storage-js sends `cacheControl` as seconds; Supabase stores `max-age=<n>` (absent → no-cache). */
function normalizeCacheControl(value: string | undefined | null): string {
  if (!value) return 'no-cache';
  if (/^\d+$/.test(value)) return `max-age=${value}`;
  return value;
}

function decodeUserMetadata(value: string | undefined): Record<string, unknown> | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    throw errors.invalidRequest('x-metadata must be base64-encoded JSON');
  }
}

interface UploadBody {
  stream: Readable;
  mimetype: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

/** The bytes of an upload: the first file part of a multipart form, or the raw body. Never buffered. */
function uploadBody(req: IncomingMessage): Promise<UploadBody> {
  const contentType = header(req, 'content-type') ?? 'application/octet-stream';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    return Promise.resolve({
      // Through a pipe, so a refusal mid-stream (too large, disk full) ends this stream, not the request: the
      // rest of the body is drained and the client reads the error instead of a reset connection.
      stream: req.pipe(new PassThrough()),
      mimetype: contentType,
      cacheControl: normalizeCacheControl(header(req, 'cache-control')?.replace(/^max-age=(\d+)$/, '$1')),
      userMetadata: decodeUserMetadata(header(req, 'x-metadata')),
    });
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fieldSize: MAX_JSON_BODY } });
    } catch (error) {
      reject(errors.invalidRequest((error as Error).message));
      return;
    }
    let found = false;
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (_name, stream, info) => {
      found = true;
      let userMetadata: Record<string, unknown> | null;
      try {
        userMetadata = fields.metadata ? (JSON.parse(fields.metadata) as Record<string, unknown>) : null;
      } catch {
        reject(errors.invalidRequest('metadata must be JSON'));
        return;
      }
      resolve({
        stream,
        mimetype: fields.contentType || info.mimeType || 'application/octet-stream',
        cacheControl: normalizeCacheControl(fields.cacheControl),
        userMetadata,
      });
    });
    parser.on('error', (error) => reject(errors.invalidRequest((error as Error).message)));
    parser.on('close', () => {
      if (!found) reject(errors.invalidRequest('No file found in the multipart form'));
    });
    req.pipe(parser);
  });
}

interface Route {
  method: string;
  pattern: RegExp;
  handler: (req: IncomingMessage, res: ServerResponse, params: string[], url: URL) => Promise<void>;
}

export async function createStorageService(
  ctx: ServiceContext,
  config: ProjectConfig['storage'],
): Promise<MountedService> {
  const pool = ctx.adminPool;
  const blobs = new BlobStore(ctx.dataDir);
  await blobs.init();
  const globalLimit = config.fileSizeLimit;
  const caller = (req: IncomingMessage, allowInvalid = false) =>
    authenticate(req, ctx.jwtSecret, ctx.anonKey, { allowInvalid });

  /** Stores bytes, then publishes the row; on any failure the new bytes are removed again. */
  const storeObject = async (
    req: IncomingMessage,
    who: { owner: string | null; ownerId: string | null },
    bucket: BucketRow,
    name: string,
    upsert: boolean,
  ) => {
    const body = await uploadBody(req);
    checkBucketLimits(bucket, globalLimit, Number(header(req, 'content-length') ?? 0) || null, body.mimetype);
    const stored = await blobs.write(body.stream, sizeLimitOf(bucket, globalLimit));
    try {
      const published = await publishObject(pool, {
        bucketId: bucket.id,
        name,
        version: stored.version,
        owner: who.owner,
        ownerId: who.ownerId,
        metadata: objectMetadata(stored.size, stored.etag, body.mimetype, body.cacheControl),
        userMetadata: body.userMetadata,
        upsert,
      });
      await blobs.remove(published.replacedVersion);
      return published.id;
    } catch (error) {
      await blobs.remove(stored.version);
      throw error;
    }
  };

  const sendObject = async (
    req: IncomingMessage,
    res: ServerResponse,
    row: ObjectRow,
    url: URL,
    options: { head?: boolean } = {},
  ) => {
    const meta = row.metadata;
    if (!row.version || !meta) throw errors.noSuchKey();
    const headers: Record<string, string> = {
      'Content-Type': servedContentType(meta.mimetype),
      ...safetyHeaders(meta.mimetype),
      ETag: meta.eTag,
      'Last-Modified': new Date(row.updated_at).toUTCString(),
      'Cache-Control': meta.cacheControl,
      'Accept-Ranges': 'bytes',
      'X-Robots-Tag': 'none',
    };
    const download = url.searchParams.get('download');
    if (download !== null) {
      const filename = encodeURIComponent(download || path.basename(row.name));
      headers['Content-Disposition'] = `attachment; filename=${filename}; filename*=UTF-8''${filename}`;
    }
    if (header(req, 'if-none-match') === meta.eTag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const range = /^bytes=(\d*)-(\d*)$/.exec(header(req, 'range') ?? '');
    let status = 200;
    let start = 0;
    let end = meta.size - 1;
    if (range && meta.size > 0) {
      start = range[1] ? Number(range[1]) : Math.max(0, meta.size - Number(range[2]));
      end = range[1] && range[2] ? Math.min(Number(range[2]), meta.size - 1) : meta.size - 1;
      if (start > end || start >= meta.size) {
        res.writeHead(416, { 'Content-Range': `bytes */${meta.size}` });
        res.end();
        return;
      }
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${meta.size}`;
    }
    headers['Content-Length'] = String(meta.size === 0 ? 0 : end - start + 1);
    res.writeHead(status, headers);
    if (options.head || req.method === 'HEAD' || meta.size === 0) {
      res.end();
      return;
    }
    const stream = blobs.read(row.version, { start, end });
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  };

  const signedToken = async (claims: Record<string, unknown>, expiresIn: number) => {
    const now = Math.floor(Date.now() / 1000);
    return signJwt({ ...claims, iat: now, exp: now + expiresIn }, ctx.jwtSecret);
  };

  const verifySigned = async (token: string | null, expectedUrl: string) => {
    if (!token) throw errors.invalidSignature('Missing token');
    let claims;
    try {
      claims = await verifyJwt(token, ctx.jwtSecret);
    } catch (error) {
      throw isExpiredError(error) ? errors.expiredToken() : errors.invalidSignature();
    }
    if (claims.url !== expectedUrl) throw errors.invalidSignature('The signature does not match this object');
    return claims;
  };

  const renderer = await createImageRenderer(ctx, blobs);
  const tus = await createTusHandler(ctx, { pool, blobs, globalLimit });

  const transformToClaim = (t: Transform | null) =>
    t
      ? Object.entries(t)
          .map(([k, v]) => `${k}:${String(v)}`)
          .join(',')
      : undefined;

  const routes: Route[] = [
    // Buckets
    {
      method: 'GET',
      pattern: /^\/bucket\/?$/,
      handler: async (req, res, _p, url) => {
        const who = await caller(req);
        const limit = Number(url.searchParams.get('limit') ?? 0);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const sortColumn = ['id', 'name', 'created_at', 'updated_at'].includes(url.searchParams.get('sortColumn') ?? '')
          ? url.searchParams.get('sortColumn')!
          : 'name';
        const sortOrder = url.searchParams.get('sortOrder') === 'desc' ? 'desc' : 'asc';
        const search = url.searchParams.get('search') ?? '';
        const { rows } = await asCaller(pool, who, 'storage.bucket.list', (db) =>
          db.query(
            `select id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at
               from storage.buckets where ($1 = '' or name ilike '%' || $1 || '%')
              order by ${sortColumn} ${sortOrder} ${limit > 0 ? `limit ${limit}` : ''} offset ${Math.max(0, offset)}`,
            [search],
          ),
        );
        sendJson(
          res,
          200,
          rows.map((row) => ({
            ...row,
            file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
          })),
        );
      },
    },
    {
      method: 'GET',
      pattern: /^\/bucket\/([^/]+)$/,
      handler: async (req, res, [id]) => {
        const who = await caller(req);
        const { rows } = await asCaller(pool, who, 'storage.bucket.get', (db) =>
          db.query(
            `select id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at
               from storage.buckets where id = $1`,
            [id],
          ),
        );
        if (!rows[0]) throw errors.noSuchBucket();
        sendJson(res, 200, {
          ...rows[0],
          file_size_limit: rows[0].file_size_limit === null ? null : Number(rows[0].file_size_limit),
        });
      },
    },
    {
      method: 'POST',
      pattern: /^\/bucket\/?$/,
      handler: async (req, res) => {
        const who = await caller(req);
        const body = await readJson(req);
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
        sendJson(res, 200, { name: id });
      },
    },
    {
      method: 'PUT',
      pattern: /^\/bucket\/([^/]+)$/,
      handler: async (req, res, [id]) => {
        const who = await caller(req);
        const body = await readJson(req);
        const { rowCount } = await asCaller(pool, who, 'storage.bucket.update', (db) =>
          db.query(
            `update storage.buckets set
               public = coalesce($2, public),
               file_size_limit = case when $3::boolean then $4::bigint else file_size_limit end,
               allowed_mime_types = case when $5::boolean then $6::text[] else allowed_mime_types end,
               updated_at = now()
             where id = $1`,
            [
              id,
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
        sendJson(res, 200, { message: 'Successfully updated' });
      },
    },
    {
      method: 'POST',
      pattern: /^\/bucket\/([^/]+)\/empty$/,
      handler: async (req, res, [id]) => {
        const who = await caller(req);
        await getBucket(pool, id!);
        const { rows } = await asCaller(pool, who, 'storage.bucket.empty', (db) =>
          db.query<{ version: string | null }>('delete from storage.objects where bucket_id = $1 returning version', [
            id,
          ]),
        );
        await Promise.all(rows.map((row) => blobs.remove(row.version)));
        // storage-api queues the deletion and says so; here it is already done, but clients see the same text.
        sendJson(res, 200, { message: 'Empty bucket has been queued. Completion may take up to an hour.' });
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/bucket\/([^/]+)$/,
      handler: async (req, res, [id]) => {
        const who = await caller(req);
        await getBucket(pool, id!);
        const { rows } = await pool.query('select 1 from storage.objects where bucket_id = $1 limit 1', [id]);
        if (rows.length > 0) throw errors.bucketNotEmpty();
        const { rowCount } = await asCaller(pool, who, 'storage.bucket.delete', (db) =>
          db.query('delete from storage.buckets where id = $1', [id]),
        );
        if (!rowCount) throw errors.accessDenied();
        sendJson(res, 200, { message: 'Successfully deleted' });
      },
    },

    // Listing, moving, copying
    {
      method: 'POST',
      pattern: /^\/object\/list-v2\/([^/]+)$/,
      handler: async (req, res, [bucketId]) => {
        const who = await caller(req);
        await getBucket(pool, bucketId!);
        sendJson(res, 200, await listObjectsV2(pool, who, bucketId!, await readJson(req)));
      },
    },
    {
      method: 'POST',
      pattern: /^\/object\/list\/([^/]+)$/,
      handler: async (req, res, [bucketId]) => {
        const who = await caller(req);
        await getBucket(pool, bucketId!);
        const body = await readJson(req);
        let prefix = typeof body.prefix === 'string' ? body.prefix : '';
        if (prefix && !prefix.endsWith('/')) prefix += '/';
        const limit = Math.min(Math.max(Number(body.limit ?? 100), 1), 1500);
        const offset = Math.max(Number(body.offset ?? 0), 0);
        const search = typeof body.search === 'string' ? body.search : '';
        const sortBy = (body.sortBy ?? {}) as { column?: string; order?: string };
        const column = ['name', 'updated_at', 'created_at', 'last_accessed_at'].includes(sortBy.column ?? '')
          ? sortBy.column!
          : 'name';
        const order = sortBy.order?.toLowerCase() === 'desc' ? 'desc' : 'asc';
        const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
        sendJson(res, 200, rows);
      },
    },
    {
      method: 'POST',
      pattern: /^\/object\/move$/,
      handler: async (req, res) => {
        const who = await caller(req);
        const body = await readJson(req);
        const { bucketId, sourceKey, destinationKey } = body as Record<string, string>;
        const destinationBucket = (body.destinationBucket as string | undefined) || bucketId;
        if (!bucketId || !sourceKey || !destinationKey)
          throw errors.invalidRequest('bucketId, sourceKey and destinationKey are required');
        validateObjectName(destinationKey);
        await getBucket(pool, bucketId);
        await getBucket(pool, destinationBucket!);
        const { rows } = await asCaller(pool, who, 'storage.object.move', (db) =>
          db.query<{ id: string }>(
            `update storage.objects set bucket_id = $3, name = $4, updated_at = now()
              where bucket_id = $1 and name = $2 returning id`,
            [bucketId, sourceKey, destinationBucket, destinationKey],
          ),
        );
        if (!rows[0]) throw errors.noSuchKey();
        sendJson(res, 200, { message: 'Successfully moved', Id: rows[0].id, Key: destinationKey });
      },
    },
    {
      method: 'POST',
      pattern: /^\/object\/copy$/,
      handler: async (req, res) => {
        const who = await caller(req);
        const body = await readJson(req);
        const { bucketId, sourceKey, destinationKey } = body as Record<string, string>;
        const destinationBucket = (body.destinationBucket as string | undefined) || bucketId;
        if (!bucketId || !sourceKey || !destinationKey)
          throw errors.invalidRequest('bucketId, sourceKey and destinationKey are required');
        validateObjectName(destinationKey);
        const source = await readableObject(pool, who, await getBucket(pool, bucketId), sourceKey);
        const target = await getBucket(pool, destinationBucket!);
        await assertCanUpload(pool, who, target.id, destinationKey, false);
        const version = await blobs.duplicate(source.version!);
        try {
          const published = await publishObject(pool, {
            bucketId: target.id,
            name: destinationKey,
            version,
            owner: ownerUuid(who),
            ownerId: who.sub,
            metadata: { ...source.metadata!, lastModified: new Date().toISOString() },
            userMetadata: body.copyMetadata === false ? null : source.user_metadata,
            upsert: false,
          });
          sendJson(res, 200, {
            Id: published.id,
            Key: `${target.id}/${destinationKey}`,
            name: destinationKey,
            bucket_id: target.id,
          });
        } catch (error) {
          await blobs.remove(version);
          throw error;
        }
      },
    },

    // Signed URLs
    {
      method: 'POST',
      pattern: /^\/object\/sign\/([^/]+)$/,
      handler: async (req, res, [bucketId]) => {
        const who = await caller(req);
        const body = await readJson(req);
        const expiresIn = Number(body.expiresIn);
        const paths = Array.isArray(body.paths) ? (body.paths as string[]) : [];
        if (!Number.isFinite(expiresIn) || expiresIn <= 0)
          throw errors.invalidRequest('expiresIn must be a positive number');
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
                  signedURL: `/object/sign/${bucketId}/${p}?token=${await signedToken({ url: `${bucketId}/${p}` }, expiresIn)}`,
                }
              : { error: 'Either the object does not exist or you do not have access to it', path: p, signedURL: null },
          ),
        );
        sendJson(res, 200, signed);
      },
    },
    {
      method: 'POST',
      pattern: /^\/object\/sign\/([^/]+)\/(.+)$/,
      handler: async (req, res, [bucketId, name]) => {
        const who = await caller(req);
        const body = await readJson(req);
        const expiresIn = Number(body.expiresIn);
        if (!Number.isFinite(expiresIn) || expiresIn <= 0)
          throw errors.invalidRequest('expiresIn must be a positive number');
        await readableObject(pool, who, await getBucket(pool, bucketId!), name!);
        const transform = body.transform
          ? parseTransformQuery(new URLSearchParams(Object.entries(body.transform as Record<string, string>)))
          : null;
        const token = await signedToken(
          { url: `${bucketId}/${name}`, transformations: transformToClaim(transform) },
          expiresIn,
        );
        const base = transform ? '/render/image/sign' : '/object/sign';
        sendJson(res, 200, { signedURL: `${base}/${bucketId}/${name}?token=${token}` });
      },
    },
    {
      method: 'GET',
      pattern: /^\/object\/sign\/([^/]+)\/(.+)$/,
      handler: async (req, res, [bucketId, name], url) => {
        await verifySigned(url.searchParams.get('token'), `${bucketId}/${name}`);
        await sendObject(req, res, await readableObject(pool, null, await getBucket(pool, bucketId!), name!), url);
      },
    },
    {
      method: 'POST',
      pattern: /^\/object\/upload\/sign\/([^/]+)\/(.+)$/,
      handler: async (req, res, [bucketId, name]) => {
        const who = await caller(req);
        validateObjectName(name!);
        await getBucket(pool, bucketId!);
        const upsert = header(req, 'x-upsert') === 'true';
        await assertCanUpload(pool, who, bucketId!, name!, upsert);
        const token = await signedToken(
          { owner: who.sub, url: `${bucketId}/${name}`, upsert, scope: 'upload' },
          2 * 60 * 60,
        );
        sendJson(res, 200, { url: `/object/upload/sign/${bucketId}/${name}?token=${token}`, token });
      },
    },
    {
      method: 'PUT',
      pattern: /^\/object\/upload\/sign\/([^/]+)\/(.+)$/,
      handler: async (req, res, [bucketId, name], url) => {
        const claims = await verifySigned(url.searchParams.get('token'), `${bucketId}/${name}`);
        if (claims.scope !== 'upload') throw errors.invalidSignature();
        const bucket = await getBucket(pool, bucketId!);
        const owner = typeof claims.owner === 'string' ? claims.owner : null;
        const id = await storeObject(
          req,
          { owner: ownerUuid({ sub: owner } as Caller), ownerId: owner },
          bucket,
          name!,
          claims.upsert === true,
        );
        sendJson(res, 200, { Key: `${bucketId}/${name}`, Id: id });
      },
    },

    // Object info and downloads
    {
      method: 'GET',
      pattern: /^\/object\/info\/(?:authenticated\/|public\/)?([^/]+)\/(.+)$/,
      handler: async (req, res, [bucketId, name]) => {
        const who = await caller(req, true);
        sendJson(res, 200, objectInfo(await readableObject(pool, who, await getBucket(pool, bucketId!), name!)));
      },
    },
    {
      method: 'GET|HEAD',
      pattern: /^\/object\/public\/([^/]+)\/(.+)$/,
      handler: async (req, res, [bucketId, name], url) => {
        const bucket = await getBucket(pool, bucketId!);
        if (!bucket.public) throw errors.noSuchBucket();
        await sendObject(req, res, await readableObject(pool, null, bucket, name!), url);
      },
    },
    {
      method: 'GET|HEAD',
      pattern: /^\/object\/(?:authenticated\/)?([^/]+)\/(.+)$/,
      handler: async (req, res, [bucketId, name], url) => {
        const who = await caller(req, true);
        await sendObject(req, res, await readableObject(pool, who, await getBucket(pool, bucketId!), name!), url);
      },
    },

    // Uploads and removal
    {
      method: 'POST|PUT',
      pattern: /^\/object\/([^/]+)\/(.+)$/,
      handler: async (req, res, [bucketId, name]) => {
        const who = await caller(req);
        validateObjectName(name!);
        const bucket = await getBucket(pool, bucketId!);
        const upsert = req.method === 'PUT' || header(req, 'x-upsert') === 'true';
        const declared = Number(header(req, 'content-length') ?? 0);
        if (declared > sizeLimitOf(bucket, globalLimit) + 64 * 1024) throw errors.tooLarge();
        await assertCanUpload(pool, who, bucket.id, name!, upsert);
        const id = await storeObject(req, { owner: ownerUuid(who), ownerId: who.sub }, bucket, name!, upsert);
        sendJson(res, 200, { Id: id, Key: `${bucketId}/${name}` });
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/object\/([^/]+)\/?$/,
      handler: async (req, res, [bucketId]) => {
        const who = await caller(req);
        await getBucket(pool, bucketId!);
        const body = await readJson(req);
        const names = Array.isArray(body.prefixes) ? (body.prefixes as string[]) : [];
        const { rows } = await asCaller(pool, who, 'storage.object.delete_many', (db) =>
          db.query<ObjectRow>(
            `delete from storage.objects where bucket_id = $1 and name = any($2) returning ${OBJECT_COLUMNS}`,
            [bucketId, names],
          ),
        );
        await Promise.all(rows.map((row) => blobs.remove(row.version)));
        sendJson(res, 200, rows);
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/object\/([^/]+)\/(.+)$/,
      handler: async (req, res, [bucketId, name]) => {
        const who = await caller(req);
        await getBucket(pool, bucketId!);
        const { rows } = await asCaller(pool, who, 'storage.object.delete', (db) =>
          db.query<ObjectRow>(
            `delete from storage.objects where bucket_id = $1 and name = $2 returning ${OBJECT_COLUMNS}`,
            [bucketId, name],
          ),
        );
        if (!rows[0]) throw errors.noSuchKey();
        await blobs.remove(rows[0].version);
        sendJson(res, 200, { message: 'Successfully deleted' });
      },
    },

    // Image transformations
    {
      method: 'GET',
      pattern: /^\/render\/image\/(authenticated|public|sign)\/([^/]+)\/(.+)$/,
      handler: async (req, res, [mode, bucketId, name], url) => {
        if (!config.imageTransformationEnabled) throw errors.routeNotFound(req.method ?? 'GET', url.pathname);
        const bucket = await getBucket(pool, bucketId!);
        let transform = parseTransformQuery(url.searchParams);
        let row: ObjectRow;
        if (mode === 'public') {
          if (!bucket.public) throw errors.noSuchBucket();
          row = await readableObject(pool, null, bucket, name!);
        } else if (mode === 'sign') {
          const claims = await verifySigned(url.searchParams.get('token'), `${bucketId}/${name}`);
          if (typeof claims.transformations === 'string') {
            transform = parseTransformQuery(
              new URLSearchParams(claims.transformations.split(',').map((pair) => pair.split(':') as [string, string])),
            );
          }
          row = await readableObject(pool, null, bucket, name!);
        } else {
          row = await readableObject(pool, await caller(req, true), bucket, name!);
        }
        await renderer.render(req, res, row, transform);
      },
    },
  ];

  const route = async (req: IncomingMessage, res: ServerResponse, subpath: string) => {
    const url = new URL(subpath, 'http://storage.local');
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      throw errors.invalidRequest('Malformed path');
    }
    if (pathname.startsWith('/upload/resumable')) {
      await tus.handle(req, res, subpath);
      return;
    }
    const method = req.method ?? 'GET';
    for (const candidate of routes) {
      if (!candidate.method.split('|').includes(method)) continue;
      const match = candidate.pattern.exec(pathname);
      if (match) {
        await candidate.handler(req, res, match.slice(1), url);
        return;
      }
    }
    throw errors.routeNotFound(method, url.pathname);
  };

  return {
    async handle(req, res, subpath) {
      try {
        await route(req, res, subpath);
      } catch (error) {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const refusal = error instanceof StorageError ? error : isNoSpaceError(error) ? errors.noSpace() : null;
        if (refusal) {
          // Answered before the whole body arrived: drain the rest so the client can read the error instead of a
          // reset, and close the connection after it, so no next request waits behind a half-read body.
          if (!req.complete) {
            res.setHeader('Connection', 'close');
            req.resume();
          }
          return sendStorageError(res, refusal);
        }
        ctx.log(`unexpected error: ${(error as Error).stack ?? String(error)}`);
        sendStorageError(res, errors.internal());
      }
    },
    async close() {
      await tus.close();
    },
  };
}
