import { supabase } from '../supabase.ts';
import { FILE_TOO_LARGE_MESSAGE, isTooLargeToUpload } from './file-name.ts';
import { createUploader, uploadedObjectPath } from './uploader.ts';
import { EMPTY_FILE_MESSAGE, spanishUploadError } from './upload-errors.ts';

/**
 * 'Subir nuevo archivo': the new bytes go to a new object under the same file id, then
 * only size, original file name, file name, processing and uploader change on the record. The database
 * takes the uploader and size from the session and the stored object, and in the same transaction queues
 * post-processing of the new object and the trash move of the previous one; the server does both.
 */
export async function replaceFile(fileId: string, file: File, onProgress: (fraction: number) => void): Promise<void> {
  if (isTooLargeToUpload(file.size)) throw new Error(FILE_TOO_LARGE_MESSAGE);
  if (file.size === 0) throw new Error(`${EMPTY_FILE_MESSAGE}.`);
  const uppy = createUploader({ folderFor: () => fileId });
  try {
    // Uppy keeps tus's English message on the file; the person is told in Spanish.
    let failure: string | undefined;
    uppy.on('upload-error', (_file, error) => {
      failure = spanishUploadError(error);
    });
    uppy.on('upload-progress', (_file, progress) => {
      if (progress.bytesTotal) onProgress(progress.bytesUploaded / progress.bytesTotal);
    });
    const id = uppy.addFile({ name: file.name, type: file.type, data: file });
    const result = await uppy.upload();
    const uploaded = result?.successful?.[0];
    if (!uploaded) throw new Error(failure ?? 'No se pudo subir el archivo.');
    const { originalName } = uppy.getFile(id).meta;
    const objectPath = uploadedObjectPath(uploaded, uploaded.uploadURL);
    const { error } = await supabase
      .from('files')
      .update({
        original_file_name: originalName,
        file_name: objectPath.split('/')[1]!,
        object_path: objectPath,
        extension: uppy.getFile(id).extension,
        processing: true,
      })
      .eq('id', fileId);
    if (error) throw error;
  } finally {
    uppy.destroy();
  }
}
