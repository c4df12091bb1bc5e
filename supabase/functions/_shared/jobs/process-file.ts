// Finishing an upload (spec: a file is `processing` until this runs): reads the stored object once,
// records size, mime type (from the bytes, not from what the uploader declared), sha256 and, for images, width and height, warms the 6 thumbnail sizes, then
// clears `processing`. Idempotent: a processed file is left as it is. A failure is recorded on the file
// (`processing_error`, shown to admins) and thrown, so the job that ran it is retried with backoff.
import { createHash } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { THUMBNAIL_SIZES } from '../thumbnails.ts';

const HEAD_BYTES = 1024 * 1024;

export interface ProcessResult {
  fileId: string;
  processing: false;
  changed: boolean;
  size?: number;
  width?: number | null;
  height?: number | null;
}

export class FileNotFound extends Error {}

export async function processFile(admin: SupabaseClient, fileId: string): Promise<ProcessResult> {
  const { data: file, error } = await admin
    .from('files')
    .select('id, object_path, processing, checksum, is_image')
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
    for await (const chunk of response.body) {
      hash.update(chunk);
      size += chunk.length;
      if (headLength < HEAD_BYTES) {
        head.push(chunk);
        headLength += chunk.length;
      }
    }
    const buffer = new Uint8Array(headLength);
    let offset = 0;
    for (const chunk of head) {
      buffer.set(chunk, offset);
      offset += chunk.length;
    }
    const mimeType = await recordedType(buffer, declaredType);
    let width: number | null = null;
    let height: number | null = null;
    if (file.is_image) {
      const dimensions = imageSize(buffer);
      width = dimensions.width ?? null;
      height = dimensions.height ?? null;
      const bucket = admin.storage.from('media');
      for (const [w, h] of THUMBNAIL_SIZES) {
        const rendered = await bucket.download(file.object_path, {
          transform: { width: w, height: h, resize: 'cover' },
        });
        if (rendered.error) throw new Error(`thumbnail ${w}x${h} failed: ${rendered.error.message}`);
      }
    }
    // Only if the object is still the one just read: a replacement meanwhile queued its own processing.
    const updated = await admin
      .from('files')
      .update({
        size,
        mime_type: mimeType,
        width,
        height,
        checksum: hash.digest('hex'),
        processing: false,
        processing_error: null,
        processed_at: new Date().toISOString(),
      })
      .eq('id', fileId)
      .eq('object_path', file.object_path);
    if (updated.error) throw updated.error;
    return { fileId, processing: false, changed: true, size, width, height };
  } catch (failure) {
    const message = failure instanceof Error ? failure.message : String(failure);
    await admin
      .from('files')
      .update({ processing_error: message.slice(0, 2000) })
      .eq('id', fileId);
    throw failure;
  }
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
