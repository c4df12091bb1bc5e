/** The columns of a bucket as storage-api returns them (no internal `type`), limits as numbers. */
export const BUCKET_COLUMNS = 'id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at';

export const bucketJson = (row: Record<string, unknown>) => ({
  ...row,
  file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
});
