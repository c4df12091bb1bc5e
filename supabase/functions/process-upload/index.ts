// Post-processing of one file on demand (the server's job queue runs the same code after every upload and
// replacement, see run-jobs): a member of staff who may see the file can ask for it again.
import { HttpError, json, readJson, serve } from '../_shared/http.ts';
import { callerClient, requireStaff, serviceClient } from '../_shared/auth.ts';
import { processFile } from '../_shared/jobs/process-file.ts';
import { PermanentProcessingError } from '../_shared/jobs/processing-errors.ts';

serve(async (request) => {
  await requireStaff(request, ['ADMIN', 'UPLOADER']);
  const body = await readJson(request);
  const fileId = typeof body.fileId === 'string' ? body.fileId : '';
  // Reading the row as the caller proves they may see this file (an uploader only their own).
  const visible = await callerClient(request).from('files').select('id').eq('id', fileId).maybeSingle();
  if (visible.error || !visible.data) throw new HttpError(404, 'FILE_NOT_FOUND', 'El archivo no existe.');
  try {
    return json(200, await processFile(serviceClient(), fileId));
  } catch (error) {
    // The file's own bytes: asking again cannot help, and the reason is the one the file now shows.
    if (error instanceof PermanentProcessingError) throw new HttpError(422, 'FILE_UNPROCESSABLE', error.reason);
    throw new HttpError(503, 'PROCESSING_FAILED', 'No se pudo procesar el archivo ahora. Se puede reintentar.');
  }
});
