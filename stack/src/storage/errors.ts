import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Storage API errors as supabase/storage returns them: HTTP 400 for every client error, with the semantic
 * status in `statusCode`; 5xx keep their HTTP status.
 */
export class StorageError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly error: string,
    message: string,
    /** HTTP status to send; defaults to 400 for client errors, as storage-api does. */
    readonly httpStatus: number = statusCode >= 500 ? statusCode : 400,
  ) {
    super(message);
  }
}

export const errors = {
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'not_found', 'Object not found'),
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  accessDenied: (message = 'new row violates row-level security policy') =>
    new StorageError(403, 'AccessDenied', 'Unauthorized', message),
  duplicate: () => new StorageError(409, 'ResourceAlreadyExists', 'Duplicate', 'The resource already exists'),
  bucketNotEmpty: () =>
    new StorageError(409, 'ResourceNotEmpty', 'Bucket not empty', 'The bucket you tried to delete is not empty'),
  tooLarge: () =>
    new StorageError(413, 'EntityTooLarge', 'Payload too large', 'The object exceeded the maximum allowed size'),
  invalidMime: (mime: string) =>
    new StorageError(415, 'InvalidMimeType', 'invalid_mime_type', `mime type ${mime} is not supported`),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', 'Bad Request', message),
  invalidKey: (name: string) => new StorageError(400, 'InvalidKey', 'Invalid Key', `Invalid key: ${name}`),
  invalidSignature: (message = 'The provided signature is invalid') =>
    new StorageError(400, 'InvalidSignature', 'InvalidSignature', message),
  expiredToken: () => new StorageError(400, 'ExpiredToken', 'ExpiredToken', 'The provided token has expired.'),
  routeNotFound: (method: string, path: string) =>
    new StorageError(404, 'InvalidRequest', 'Not Found', `Route ${method}:${path} not found`, 404),
  internal: () => new StorageError(500, 'InternalError', 'internal', 'Internal Server Error'),
  /**
   * The disk under the stack's data dir is full. Hosted Storage writes to S3 and never says this; the local
   * stack answers 507 so clients can tell "try later, tell an admin" from a bug.
   */
  noSpace: () =>
    new StorageError(507, 'InsufficientStorage', 'Insufficient Storage', 'There is no space left to store the object'),
};

/** A write that failed because the disk is full (or the quota is exhausted). */
export const isNoSpaceError = (error: unknown) =>
  ['ENOSPC', 'EDQUOT'].includes((error as { code?: string } | null)?.code ?? '');

/** storage-api's error body; the HTTP status is 400 for client errors (see StorageError). */
export function storageErrorResponse(c: Context, error: StorageError): Response {
  return c.json(
    { statusCode: String(error.statusCode), code: error.code, error: error.error, message: error.message },
    error.httpStatus as ContentfulStatusCode,
    { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  );
}

/** Maps a Postgres error raised while acting as the caller to the storage error clients expect. */
export function fromDatabaseError(error: unknown): StorageError {
  const code = (error as { code?: string }).code;
  if (code === '42501') return errors.accessDenied();
  if (code === '23505') return errors.duplicate();
  if (code === '23503') return errors.noSuchBucket();
  if (code === '22P02' || code === '22023') return errors.invalidRequest((error as Error).message);
  return errors.internal();
}
