// Post-processing of one file on demand (the server's job queue runs the same steps after every upload and
// replacement, see run-jobs): a member of staff who may see the file can ask for it again. A file larger
// than this request's budget is left to the queue, which goes on from where this stopped.
import { HttpError, json, readJson, serve } from '../_shared/http.ts';
import { callerClient, requireStaff, serviceClient } from '../_shared/auth.ts';
import { requestBudget } from '../_shared/budget.ts';
import { processFileStep, type ProcessProgress } from '../_shared/jobs/process-file.ts';
import { PermanentProcessingError } from '../_shared/jobs/processing-errors.ts';

const CPU_BUDGET_MS = 600;
const WALL_BUDGET_MS = 30_000;

serve(async (request) => {
  await requireStaff(request, ['ADMIN', 'UPLOADER']);
  const body = await readJson(request);
  const fileId = typeof body.fileId === 'string' ? body.fileId : '';
  // Reading the row as the caller proves they may see this file (an uploader only their own).
  const visible = await callerClient(request).from('files').select('id').eq('id', fileId).maybeSingle();
  if (visible.error || !visible.data) throw new HttpError(404, 'FILE_NOT_FOUND', 'El archivo no existe.');
  const budget = requestBudget(CPU_BUDGET_MS, WALL_BUDGET_MS);
  try {
    let progress: ProcessProgress | null = null;
    for (;;) {
      const step = await processFileStep(serviceClient(), fileId, progress);
      if (step.done) return json(200, step.result);
      progress = step.progress;
      if (budget.spent()) return json(202, { fileId, processing: true });
    }
  } catch (error) {
    // The file's own bytes: asking again cannot help, and the reason is the one the file now shows.
    if (error instanceof PermanentProcessingError) throw new HttpError(422, 'FILE_UNPROCESSABLE', error.reason);
    throw new HttpError(503, 'PROCESSING_FAILED', 'No se pudo procesar el archivo ahora. Se puede reintentar.');
  }
});
