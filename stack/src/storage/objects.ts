import { escapeLiteral, type Pool } from 'pg';
import { asCaller, asService, ownerUuid, readAsCaller, type Caller } from './access.ts';
import { errors } from './errors.ts';

export interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  public: boolean;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
  type: string;
  created_at: Date;
  updated_at: Date;
}

export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  last_accessed_at: Date;
}

export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

const OBJECT_COLUMNS =
  'id, bucket_id, name, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at';

export async function getBucket(pool: Pool, id: string): Promise<BucketRow> {
  const { rows } = await pool.query<BucketRow>('select * from storage.buckets where id = $1', [id]);
  if (!rows[0]) throw errors.noSuchBucket();
  return rows[0];
}

/**
 * Supabase Storage's key rule (storage-api `isValidKey`): only S3-safe characters — ASCII letters and digits
 * and `_/!.*'() &$=@;:+,?-`. So `<>\|"%#`, control characters and accented letters are refused here as on
 * hosted Supabase (apps keep the user's name elsewhere; ours stores `{fileId}/{uploadId}.{ext}`). Empty, `.`
 * and `..` segments are refused too: the stack serves objects from disk and never resolves such a path.
 */
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]+$/;

export function validateObjectName(name: string): void {
  if (
    name.length > 1024 ||
    !VALID_OBJECT_KEY.test(name) ||
    name.startsWith('/') ||
    name.split('/').some((s) => s === '' || s === '.' || s === '..')
  ) {
    throw errors.invalidKey(name);
  }
}

function mimeAllowed(allowed: string[], mime: string): boolean {
  const base = mime.split(';')[0]!.trim().toLowerCase();
  return allowed.some((pattern) => {
    const p = pattern.trim().toLowerCase();
    if (p.endsWith('/*')) return base.startsWith(p.slice(0, -1));
    return p === base;
  });
}

/** The upload size limit for a bucket: its own, capped by the project's global limit. */
export function sizeLimitOf(bucket: BucketRow, globalLimit: number): number {
  const own = bucket.file_size_limit === null ? null : Number(bucket.file_size_limit);
  return own === null ? globalLimit : Math.min(own, globalLimit);
}

export function checkBucketLimits(bucket: BucketRow, globalLimit: number, size: number | null, mime: string): void {
  if (size !== null && size > sizeLimitOf(bucket, globalLimit)) throw errors.tooLarge();
  if (
    bucket.allowed_mime_types &&
    bucket.allowed_mime_types.length > 0 &&
    !mimeAllowed(bucket.allowed_mime_types, mime)
  ) {
    throw errors.invalidMime(mime);
  }
}

/**
 * Whether the caller may create (or, with upsert, overwrite) the object: storage-api runs the INSERT as
 * the caller in a transaction it rolls back, so exactly the INSERT (and UPDATE/SELECT for upsert) policies
 * decide, and an existing object without upsert is a 409 before any byte is stored.
 */
export async function assertCanUpload(pool: Pool, caller: Caller, bucketId: string, name: string, upsert: boolean) {
  await asCaller(
    pool,
    caller,
    'storage.object.upload',
    async (db) => {
      await db.query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
         values ($1, $2, $3, $4, gen_random_uuid()::text, '{}')
         ${upsert ? 'on conflict (bucket_id, name) do update set version = excluded.version, updated_at = now()' : ''}`,
        [bucketId, name, ownerUuid(caller), caller.sub],
      );
    },
    { rollback: true },
  );
}

export function objectMetadata(size: number, etag: string, mimetype: string, cacheControl: string): ObjectMetadata {
  return {
    eTag: `"${etag}"`,
    size,
    mimetype,
    cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: size,
    httpStatusCode: 200,
  };
}

/**
 * Makes a stored version visible: inserts the row, or with upsert replaces the previous version in the
 * same statement. Returns the row id and the version it replaced (whose bytes the caller then removes).
 */
export async function publishObject(
  pool: Pool,
  input: {
    bucketId: string;
    name: string;
    version: string;
    owner: string | null;
    ownerId: string | null;
    metadata: ObjectMetadata;
    userMetadata: Record<string, unknown> | null;
    upsert: boolean;
  },
): Promise<{ id: string; replacedVersion: string | null }> {
  return asService(pool, async (db) => {
    const previous = await db.query<{ version: string | null }>(
      'select version from storage.objects where bucket_id = $1 and name = $2 for update',
      [input.bucketId, input.name],
    );
    if (previous.rows[0] && !input.upsert) throw errors.duplicate();
    const { rows } = await db.query<{ id: string }>(
      `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (bucket_id, name) do update set
         owner = excluded.owner, owner_id = excluded.owner_id, version = excluded.version,
         metadata = excluded.metadata, user_metadata = excluded.user_metadata, updated_at = now(),
         last_accessed_at = now()
       returning id`,
      [
        input.bucketId,
        input.name,
        input.owner,
        input.ownerId,
        input.version,
        input.metadata,
        // storage-api's uploader stores `{ ...userMetadata }`: an upload without metadata has `{}`, not null.
        input.userMetadata ?? {},
      ],
    );
    return { id: rows[0]!.id, replacedVersion: previous.rows[0]?.version ?? null };
  });
}

/** The object if the caller may read it: RLS as the caller, or any object of a public bucket. */
export async function readableObject(
  pool: Pool,
  caller: Caller | null,
  bucket: BucketRow,
  name: string,
): Promise<ObjectRow> {
  const row =
    bucket.public || !caller
      ? (
          await pool.query<ObjectRow>(
            `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
            [bucket.id, name],
          )
        ).rows[0]
      : await objectAsCaller(pool, caller, 'storage.object.get', bucket.id, name);
  if (!row) throw errors.noSuchKey();
  return row;
}

/**
 * The object as the caller's RLS lets them select it, in one round trip (readAsCaller): what storage-api's
 * findObject does for reads of a private bucket and for every signature.
 */
export async function objectAsCaller(
  pool: Pool,
  caller: Caller,
  operation: string,
  bucketId: string,
  name: string,
): Promise<ObjectRow | undefined> {
  const rows = await readAsCaller<ObjectRow>(
    pool,
    caller,
    operation,
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = ${escapeLiteral(bucketId)} and name = ${escapeLiteral(name)}`,
  );
  return rows[0];
}

export function objectInfo(row: ObjectRow) {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: row.metadata?.size ?? null,
    content_type: row.metadata?.mimetype ?? null,
    cache_control: row.metadata?.cacheControl ?? null,
    etag: row.metadata?.eTag ?? null,
    metadata: row.user_metadata,
    last_modified: row.updated_at,
    created_at: row.created_at,
  };
}

export { OBJECT_COLUMNS };
