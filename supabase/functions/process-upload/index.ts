// Finishes an upload (spec: a file is `processing` until this runs): verifies the stored object, records
// size, mime type, sha256 and, for images, width and height, warms the 6 thumbnail sizes, then clears
// `processing`. The app calls it when an upload completes (the same call works on hosted Supabase, where
// no webhook set-up is needed); it is idempotent, and a failure is recorded on the file for a retry.
import { createHash } from 'node:crypto';
import { imageSize } from 'image-size';
import { HttpError, json, readJson, serve } from '../_shared/http.ts';
import { callerClient, requireStaff, serviceClient } from '../_shared/auth.ts';
import { THUMBNAIL_SIZES } from '../_shared/thumbnails.ts';

const HEAD_BYTES = 1024 * 1024;

serve(async (request) => {
  await requireStaff(request, ['ADMIN', 'UPLOADER']);
  const body = await readJson(request);
  const fileId = typeof body.fileId === 'string' ? body.fileId : '';
  // Reading the row as the caller proves they may see this file (an uploader only their own).
  const visible = await callerClient(request).from('files').select('id').eq('id', fileId).maybeSingle();
  if (visible.error || !visible.data) throw new HttpError(404, 'FILE_NOT_FOUND', 'El archivo no existe.');

  const admin = serviceClient();
  const { data: file, error } = await admin
    .from('files')
    .select('id, object_path, processing, checksum, is_image, size')
    .eq('id', fileId)
    .single();
  if (error) throw error;
  if (!file.processing && file.checksum) return json(200, { fileId, processing: false, changed: false });

  try {
    const url = `${Deno.env.get('SUPABASE_URL')}/storage/v1/object/media/${file.object_path}`;
    const key = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!;
    const response = await fetch(url, { headers: { Authorization: `Bearer ${key}`, apikey: key } });
    if (!response.ok || !response.body) throw new Error(`the stored object could not be read (${response.status})`);
    const mimeType = response.headers.get('content-type') ?? 'application/octet-stream';
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
    let width: number | null = null;
    let height: number | null = null;
    if (file.is_image) {
      const buffer = new Uint8Array(headLength);
      let offset = 0;
      for (const chunk of head) {
        buffer.set(chunk, offset);
        offset += chunk.length;
      }
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
    const updated = await admin
      .from('files')
      .update({
        size,
        mime_type: mimeType.split(';')[0],
        width,
        height,
        checksum: hash.digest('hex'),
        processing: false,
        processing_error: null,
        processed_at: new Date().toISOString(),
      })
      .eq('id', fileId);
    if (updated.error) throw updated.error;
    return json(200, { fileId, processing: false, changed: true, size, width, height });
  } catch (failure) {
    const message = failure instanceof Error ? failure.message : String(failure);
    await admin
      .from('files')
      .update({ processing_error: message.slice(0, 2000) })
      .eq('id', fileId);
    throw new HttpError(500, 'PROCESSING_FAILED', 'No se pudo procesar el archivo. Se puede reintentar.');
  }
});
