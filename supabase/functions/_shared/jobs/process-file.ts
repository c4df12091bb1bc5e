// Finishing an upload (spec: a file is `processing` until this runs): reads the stored object once,
// records size, mime type (from the bytes, not from what the uploader declared), sha256 and, for images, width and height, warms the 6 thumbnail sizes, then
// clears `processing`. A PDF gets a picture of its first page beside it (`{object}.preview.jpg` in the media
// bucket, recorded as `preview_path` in the same update); a PDF that cannot be rendered gets none and is
// processed all the same. Idempotent: a processed file is left as it is. A failure is recorded on the file
// (`processing_error`, a Spanish reason) and thrown: a PermanentProcessingError (empty file, bytes that are
// not the image the name says, an undecodable image) ends its job at once, anything else is retried.
import { createHash } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { THUMBNAIL_SIZES } from '../thumbnails.ts';
import { PREVIEW_MAX_SOURCE_BYTES, renderFirstPage } from '../pdf-preview.ts';
import { PermanentProcessingError, THUMBNAILED_TYPES, failureReason, thumbnailFailure } from './processing-errors.ts';

const HEAD_BYTES = 1024 * 1024;

export interface ProcessResult {
  fileId: string;
  processing: false;
  changed: boolean;
  size?: number;
  width?: number | null;
  height?: number | null;
  previewPath?: string | null;
}

/** Where the first-page picture of the object at `objectPath` is stored: beside it, named after it. */
export const previewPathOf = (objectPath: string) => `${objectPath}.preview.jpg`;

export class FileNotFound extends Error {}

export async function processFile(admin: SupabaseClient, fileId: string): Promise<ProcessResult> {
  const { data: file, error } = await admin
    .from('files')
    .select('id, object_path, processing, checksum, is_image, extension')
    .eq('id', fileId)
    .maybeSingle();
  if (error) throw error;
  if (!file) throw new FileNotFound(`file ${fileId} does not exist`);
  if (!file.processing && file.checksum) return { fileId, processing: false, changed: false };

  try {
    const url = `${Deno.env.get('SUPABASE_URL')}/storage/v1/object/media/${file.object_path}`;
    const key = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!;
    const response = await fetch(url, { headers: { Authorization: `Bearer ${key}`, apikey: key } });
    if (!response.ok || !response.body) throw new Error(`the stored object could not be read (${response.status})`);
    const declaredType = response.headers.get('content-type') ?? 'application/octet-stream';
    const hash = createHash('sha256');
    const head: Uint8Array[] = [];
    let headLength = 0;
    let size = 0;
    // A PDF small enough to preview is kept whole as it streams by (one buffer, no copies of chunks).
    const declaredLength = Number(response.headers.get('content-length') ?? NaN);
    let whole: Uint8Array | null =
      file.extension === 'pdf' && declaredLength > 0 && declaredLength <= PREVIEW_MAX_SOURCE_BYTES
        ? new Uint8Array(declaredLength)
        : null;
    for await (const chunk of response.body) {
      hash.update(chunk);
      if (whole) {
        if (size + chunk.length <= whole.length) whole.set(chunk, size);
        else whole = null;
      }
      size += chunk.length;
      if (headLength < HEAD_BYTES) {
        head.push(chunk);
        headLength += chunk.length;
      }
    }
    if (whole && size !== whole.length) whole = null;
    const buffer = new Uint8Array(headLength);
    let offset = 0;
    for (const chunk of head) {
      buffer.set(chunk, offset);
      offset += chunk.length;
    }
    if (size === 0) throw new PermanentProcessingError('empty_file', 'the stored object has no bytes');
    const mimeType = await recordedType(buffer, declaredType);
    let width: number | null = null;
    let height: number | null = null;
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
          transform: { width: w, height: h, resize: 'cover' },
        });
        if (rendered.error) throw thumbnailFailure(rendered.error as { message: string; statusCode?: unknown });
      }
    }
    const previewPath =
      whole && mimeType === 'application/pdf' ? await storePreview(admin, file.object_path, whole) : null;
    whole = null;
    // Only if the object is still the one just read: a replacement meanwhile queued its own processing.
    const updated = await admin
      .from('files')
      .update({
        size,
        mime_type: mimeType,
        width,
        height,
        checksum: hash.digest('hex'),
        preview_path: previewPath,
        processing: false,
        processing_error: null,
        processed_at: new Date().toISOString(),
      })
      .eq('id', fileId)
      .eq('object_path', file.object_path)
      .select('id');
    if (updated.error) throw updated.error;
    if (previewPath && !updated.data.length) {
      // Replaced or deleted while this ran: the picture belongs to no file.
      await admin.storage.from('media').remove([previewPath]);
    }
    return { fileId, processing: false, changed: true, size, width, height, previewPath };
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
