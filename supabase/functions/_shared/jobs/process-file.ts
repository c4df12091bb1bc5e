// Finishing an upload (a file is `processing` until this runs): reads the stored object once, records size,
// mime type (from the bytes, not from what the uploader declared), sha256 and, for images, width and height,
// warms the 6 thumbnail sizes, then clears `processing`. A PDF gets a picture of its first page beside it
// (`{object}.preview.jpg` in the media bucket, recorded as `preview_path` in the same update); a PDF that
// cannot be rendered gets none and is processed all the same. The object is read in steps of
// CHECKSUM_STEP_BYTES, one per request of the job runner, so a 1 GB upload fits an Edge Function's limits:
// the first step also looks at the head of the file (the embedded EXIF/IPTC/XMP of an image or a HEIF picture
// is read from it too, see embedded-metadata.ts); each returns where it stands (ProcessProgress) until the last
// stores that metadata (file-metadata.ts), then records everything else in one update. Idempotent: a processed file is left as it is. A failure is recorded
// on the file (`processing_error`, a Spanish reason) and thrown: a PermanentProcessingError (empty file, bytes
// that are not the image the name says, an undecodable image) ends its job at once, anything else is retried.
import type { SupabaseClient } from '@supabase/supabase-js';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { THUMBNAIL_FIT, THUMBNAIL_SIZES } from '../media-variants.ts';
import { PREVIEW_MAX_SOURCE_BYTES, renderFirstPage } from '../pdf-preview.ts';
import { PermanentProcessingError, THUMBNAILED_TYPES, failureReason, thumbnailFailure } from './processing-errors.ts';
import {
  CHECKSUM_STEP_BYTES,
  ObjectReadError,
  digestOf,
  hashStep,
  readObjectRange,
  type HashProgress,
} from './checksum.ts';
import { readEmbeddedMetadata, type EmbeddedMetadata } from './embedded-metadata.ts';
import { recordEmbeddedMetadata } from './file-metadata.ts';

const HEAD_BYTES = 1024 * 1024;
/**
 * How much of an image's head is kept for its embedded metadata: the blocks sit before the pixels (JPEG
 * segments before the scan, PNG chunks before IDAT) and a large XMP packet (1 MB, or a JPEG's extended XMP
 * spread over many segments) must still fit. Only this much is kept, whatever the file's size.
 */
const METADATA_HEAD_BYTES = 4 * 1024 * 1024;

/**
 * HEIF pictures (a phone's .heic): documents here, since thumbnails and dimensions are made from JPEG and PNG
 * only (a HEIC shows its extension tile), but their embedded metadata is read as an image's is, from the same
 * 4 MiB head (the meta box comes first; the Exif and XMP items it points to follow it, usually at the start of
 * the mdat box), when the bytes say they are HEIF.
 */
const METADATA_ONLY_EXTENSIONS = new Set(['heic', 'heif']);
const HEIF_TYPES = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);

/**
 * The operators' switch (`supabase secrets set EMBEDDED_METADATA=off`): processing without reading embedded
 * metadata, should a parser problem ever need ruling out without a deploy; the benchmark's baseline too.
 */
const readsEmbeddedMetadata = () => Deno.env.get('EMBEDDED_METADATA') !== 'off';

export interface ProcessResult {
  fileId: string;
  processing: false;
  changed: boolean;
  size?: number;
  width?: number | null;
  height?: number | null;
  previewPath?: string | null;
}

/** Where a file's processing stands between steps: what the head said, and the hash so far. */
export interface ProcessProgress {
  objectPath: string;
  size: number;
  mimeType: string;
  width: number | null;
  height: number | null;
  previewPath: string | null;
  /** An image's or a HEIF picture's embedded metadata, sanitised; null for other files. */
  metadata?: EmbeddedMetadata | null;
  hash: HashProgress;
}

export type ProcessStep = { done: true; result: ProcessResult } | { done: false; progress: ProcessProgress };

/** Where the first-page picture of the object at `objectPath` is stored: beside it, named after it. */
export const previewPathOf = (objectPath: string) => `${objectPath}.preview.jpg`;

export class FileNotFound extends Error {}

interface FileRow {
  id: string;
  object_path: string;
  processing: boolean;
  checksum: string | null;
  is_image: boolean;
  extension: string;
  original_file_name: string;
}

/** The total size from a ranged answer: `Content-Range: bytes 0-99/1234`, or the whole body's length. */
function totalSize(response: Response): number {
  const range = response.headers.get('content-range');
  const total = range ? Number(range.split('/')[1]) : Number(response.headers.get('content-length'));
  if (!Number.isFinite(total)) throw new Error('the stored object did not say its size');
  return total;
}

/** The first step: the head of the file (type, dimensions, thumbnails, a PDF's preview) and its first range. */
async function firstStep(admin: SupabaseClient, file: FileRow): Promise<ProcessProgress> {
  let response: Response;
  try {
    response = await readObjectRange(file.object_path, 0, CHECKSUM_STEP_BYTES);
  } catch (error) {
    // An empty object has no range to read: nothing can ever be made of it.
    if (error instanceof ObjectReadError && error.status === 416) {
      throw new PermanentProcessingError('empty_file', 'the stored object has no bytes');
    }
    throw error;
  }
  const size = totalSize(response);
  if (size === 0) throw new PermanentProcessingError('empty_file', 'the stored object has no bytes');
  const declaredType = response.headers.get('content-type') ?? 'application/octet-stream';
  const head: Uint8Array[] = [];
  let headLength = 0;
  // A PDF small enough to preview is all in the first range; it is kept whole as it streams by.
  let whole: Uint8Array | null =
    file.extension === 'pdf' && size > 0 && size <= Math.min(PREVIEW_MAX_SOURCE_BYTES, CHECKSUM_STEP_BYTES)
      ? new Uint8Array(size)
      : null;
  let received = 0;
  const keep = file.is_image || METADATA_ONLY_EXTENSIONS.has(file.extension) ? METADATA_HEAD_BYTES : HEAD_BYTES;
  const hash = await hashStep(null, response.body!, (chunk) => {
    if (whole) whole.set(chunk, received);
    received += chunk.length;
    if (headLength < keep) {
      head.push(chunk);
      headLength += chunk.length;
    }
  });
  if (whole && received !== whole.length) whole = null;
  const buffer = new Uint8Array(headLength);
  let offset = 0;
  for (const chunk of head) {
    buffer.set(chunk, offset);
    offset += chunk.length;
  }
  const mimeType = await recordedType(buffer, declaredType);
  let width: number | null = null;
  let height: number | null = null;
  let metadata: EmbeddedMetadata | null = null;
  if (file.is_image) {
    if (!THUMBNAILED_TYPES.has(mimeType)) throw new PermanentProcessingError('unsupported_type', mimeType);
    let dimensions: ReturnType<typeof imageSize>;
    try {
      dimensions = imageSize(buffer);
    } catch (error) {
      throw new PermanentProcessingError('unreadable_image', (error as Error).message);
    }
    width = dimensions.width ?? null;
    height = dimensions.height ?? null;
    const bucket = admin.storage.from('media');
    for (const [w, h] of THUMBNAIL_SIZES) {
      const rendered = await bucket.download(file.object_path, {
        transform: { width: w, height: h, resize: THUMBNAIL_FIT },
      });
      if (rendered.error) throw thumbnailFailure(rendered.error as { message: string; statusCode?: unknown });
    }
    if (readsEmbeddedMetadata()) metadata = readEmbeddedMetadata(buffer);
  } else if (METADATA_ONLY_EXTENSIONS.has(file.extension) && HEIF_TYPES.has(mimeType) && readsEmbeddedMetadata()) {
    metadata = readEmbeddedMetadata(buffer);
  }
  const previewPath =
    whole && mimeType === 'application/pdf' ? await storePreview(admin, file.object_path, whole) : null;
  return { objectPath: file.object_path, size, mimeType, width, height, previewPath, metadata, hash };
}

/** One step of a file's processing; `progress` is what the previous step returned (null for the first). */
export async function processFileStep(
  admin: SupabaseClient,
  fileId: string,
  progress: ProcessProgress | null,
): Promise<ProcessStep> {
  const { data: file, error } = await admin
    .from('files')
    .select('id, object_path, processing, checksum, is_image, extension, original_file_name')
    .eq('id', fileId)
    .maybeSingle<FileRow>();
  if (error) throw error;
  if (!file) throw new FileNotFound(`file ${fileId} does not exist`);
  if (!file.processing && file.checksum) return { done: true, result: { fileId, processing: false, changed: false } };

  try {
    // A replacement since the last step starts over on the new object.
    let current = progress?.objectPath === file.object_path ? progress : null;
    if (!current) {
      current = await firstStep(admin, file);
    } else {
      const end = Math.min(current.hash.offset + CHECKSUM_STEP_BYTES, current.size);
      const response = await readObjectRange(file.object_path, current.hash.offset, end);
      current = { ...current, hash: await hashStep(current.hash, response.body!) };
    }
    if (current.hash.offset < current.size) return { done: false, progress: current };
    if (current.hash.offset !== current.size) {
      throw new Error(`the stored object changed while it was read (${current.hash.offset} of ${current.size} bytes)`);
    }
    return { done: true, result: await recordProcessed(admin, file, current) };
  } catch (failure) {
    // The reason people read (Spanish); the technical message goes to the job's last_error via the runner.
    // Only while the object is still the one that failed: a replacement has its own processing.
    await admin
      .from('files')
      .update({ processing_error: failureReason(failure) })
      .eq('id', fileId)
      .eq('object_path', file.object_path);
    throw failure;
  }
}

async function recordProcessed(admin: SupabaseClient, file: FileRow, done: ProcessProgress): Promise<ProcessResult> {
  const fileId = file.id;
  // Before the update that ends the processing, so a failure here is retried with the job.
  if (done.metadata) await recordEmbeddedMetadata(admin, file, done.objectPath, done.metadata);
  // Only if the object is still the one just read: a replacement meanwhile queued its own processing.
  const updated = await admin
    .from('files')
    .update({
      size: done.size,
      mime_type: done.mimeType,
      width: done.width,
      height: done.height,
      checksum: await digestOf(done.hash),
      preview_path: done.previewPath,
      processing: false,
      processing_error: null,
      processed_at: new Date().toISOString(),
      ...(done.metadata ? { captured_at: done.metadata.capturedAt } : {}),
    })
    .eq('id', fileId)
    .eq('object_path', done.objectPath)
    .select('id');
  if (updated.error) throw updated.error;
  if (done.previewPath && !updated.data.length) {
    // Replaced or deleted while this ran: the picture belongs to no file.
    await admin.storage.from('media').remove([done.previewPath]);
  }
  const { size, width, height, previewPath } = done;
  return { fileId, processing: false, changed: true, size, width, height, previewPath };
}

/**
 * Renders the first page of the PDF stored at `objectPath` and stores it beside it; its path, or null when
 * the document gives no picture (corrupt, encrypted, too big), which is no failure of the processing. A failed
 * write to Storage is one, and is retried with the job.
 */
async function storePreview(admin: SupabaseClient, objectPath: string, pdf: Uint8Array): Promise<string | null> {
  const rendered = await renderFirstPage(pdf);
  if (!rendered.preview) {
    console.warn(`no preview for ${objectPath}: ${rendered.reason}`);
    return null;
  }
  const path = previewPathOf(objectPath);
  const stored = await admin.storage
    .from('media')
    .upload(path, rendered.preview.jpeg, { contentType: 'image/jpeg', upsert: true });
  if (stored.error) throw new Error(`the preview could not be stored: ${stored.error.message}`);
  return path;
}

/**
 * The type the bytes say (magic numbers, via file-type). Text formats have none: for them the declared type is
 * kept, except that a declared binary type on bytes no format matches becomes application/octet-stream, so a
 * page uploaded as "photo.jpg" is never recorded as an image.
 */
async function recordedType(head: Uint8Array, declared: string): Promise<string> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) return detected.mime;
  const essence = declared.split(';')[0]!.trim().toLowerCase();
  const textual =
    essence.startsWith('text/') || essence.endsWith('+xml') || essence.endsWith('/json') || essence.endsWith('/xml');
  return textual ? essence : 'application/octet-stream';
}
