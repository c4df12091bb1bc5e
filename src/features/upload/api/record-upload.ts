import { supabase } from '../../../lib/supabase.ts';
import { fileBaseName, fileExtension } from '../../../lib/uploads/file-name.ts';

export interface CompletedUpload {
  fileId: string;
  objectPath: string;
  originalFileName: string;
  /** The name as the person wrote it (readableTitle); the sanitized file name's base when unknown. */
  title?: string;
}

/**
 * Writes the file record once its bytes have landed: titles from the name the person gave the file,
 * unpublished, B2B, processing. The database sets the uploader, the upload date and the size (from the
 * stored object) and queues post-processing in the same transaction; the server clears `processing`
 * (the grid follows through realtime), whether or not this tab stays open.
 */
export async function recordUpload(upload: CompletedUpload): Promise<void> {
  const baseName = upload.title || fileBaseName(upload.originalFileName) || upload.originalFileName;
  const { error } = await supabase.from('files').insert({
    id: upload.fileId,
    file_name: upload.objectPath.split('/')[1]!,
    object_path: upload.objectPath,
    original_file_name: upload.originalFileName,
    name_es: baseName,
    name_en: baseName,
    extension: fileExtension(upload.originalFileName),
    published: false,
    b2b: true,
    processing: true,
  });
  if (error) throw error;
}
