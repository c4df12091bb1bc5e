import { supabase } from '../../../lib/supabase.ts';
import { fileBaseName, fileExtension } from '../../../lib/uploads/file-name.ts';

export interface CompletedUpload {
  fileId: string;
  objectPath: string;
  originalFileName: string;
  size: number;
}

/**
 * Writes the file record once its bytes have landed (spec section 3): names from the original file name,
 * unpublished, B2B, processing, with the signed-in user as uploader. Then asks for post-processing, which
 * clears `processing` (the grid follows through realtime).
 */
export async function recordUpload(upload: CompletedUpload): Promise<void> {
  const { data: userData, error: userError } = await supabase.auth.getUser();
  if (userError || !userData.user) throw userError ?? new Error('No hay sesión');
  const baseName = fileBaseName(upload.originalFileName) || upload.originalFileName;
  const { error } = await supabase.from('files').insert({
    id: upload.fileId,
    file_name: upload.objectPath.split('/')[1]!,
    object_path: upload.objectPath,
    original_file_name: upload.originalFileName,
    name_es: baseName,
    name_en: baseName,
    size: upload.size,
    uploaded_on: new Date().toISOString(),
    uploader_id: userData.user.id,
    uploader_email: userData.user.email ?? '',
    extension: fileExtension(upload.originalFileName),
    published: false,
    b2b: true,
    processing: true,
  });
  if (error) throw error;
  // Post-processing failures are recorded on the file and can be retried; the upload itself succeeded.
  void supabase.functions.invoke('process-upload', { body: { fileId: upload.fileId } });
}
