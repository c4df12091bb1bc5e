import { deployment } from '../../config/deployment.ts';
import Uppy from '@uppy/core';
import Tus from '@uppy/tus';
import { supabase } from '../supabase.ts';
import { fileExtension, isTooLargeToUpload, FILE_TOO_LARGE_MESSAGE, sanitizeFileName } from './file-name.ts';
import { objectPathFromUploadUrl, supabaseTusOptions, type UploadMeta } from './tus-options.ts';

/**
 * 'Subir nuevo archivo' (spec section 3): the new bytes go to a new object under the same file id, then
 * only size, original file name, file name, processing and uploader change on the record. The database
 * takes the uploader and size from the session and the stored object, and in the same transaction queues
 * post-processing of the new object and the trash move of the previous one; the server does both.
 */
export async function replaceFile(fileId: string, file: File, onProgress: (fraction: number) => void): Promise<void> {
  if (isTooLargeToUpload(file.size)) throw new Error(FILE_TOO_LARGE_MESSAGE);
  const originalName = sanitizeFileName(file.name) || 'archivo';
  const extension = fileExtension(originalName);
  const objectName = `${fileId}/${crypto.randomUUID()}${extension ? `.${extension}` : ''}`;
  const uppy = new Uppy<UploadMeta, Record<string, never>>({ autoProceed: false });
  uppy.use(Tus<UploadMeta, Record<string, never>>, supabaseTusOptions());
  try {
    uppy.on('upload-progress', (_file, progress) => {
      if (progress.bytesTotal) onProgress(progress.bytesUploaded / progress.bytesTotal);
    });
    uppy.addFile({
      name: originalName,
      type: file.type,
      data: file,
      meta: {
        bucketName: deployment.storage.mediaBucket,
        objectName,
        contentType: file.type || 'application/octet-stream',
        cacheControl: 'no-cache',
        originalName,
      },
    });
    const result = await uppy.upload();
    const uploaded = result?.successful?.[0];
    if (!uploaded) throw new Error(result?.failed?.[0]?.error ?? 'No se pudo subir el archivo.');
    const objectPath = (uploaded.uploadURL && objectPathFromUploadUrl(uploaded.uploadURL)) ?? objectName;
    const { error } = await supabase
      .from('files')
      .update({
        original_file_name: originalName,
        file_name: objectPath.split('/')[1]!,
        object_path: objectPath,
        extension,
        processing: true,
      })
      .eq('id', fileId);
    if (error) throw error;
  } finally {
    uppy.destroy();
  }
}
