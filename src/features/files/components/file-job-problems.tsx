import { useQuery } from '@tanstack/react-query';
import { fileJobsQuery, type FileJob } from '../api/get-file-jobs.ts';
import { useRetryFileJob } from '../api/retry-file-job.ts';
import { formatDateTime } from '../../../lib/format.ts';

/** What each kind of server job does, as an admin reads it. */
const WHAT_FAILED: Record<string, string> = {
  process_upload: 'No se pudo procesar el archivo (tamaño, tipo, huella y miniaturas).',
  trash_objects: 'No se pudo mover a la papelera la versión anterior del archivo.',
};

function JobProblem({ fileId, job }: { fileId: string; job: FileJob }) {
  const retry = useRetryFileJob(fileId);
  const failed = job.state === 'failed';
  return (
    <div className={failed ? 'job-problem job-problem-failed' : 'job-problem'} role={failed ? 'alert' : 'status'}>
      <p>
        <strong>{WHAT_FAILED[job.kind] ?? 'Una tarea del servidor sobre este archivo ha fallado.'}</strong>
      </p>
      {failed ? (
        <p>
          Se intentó {job.attempts} {job.attempts === 1 ? 'vez' : 'veces'} sin éxito y no se volverá a intentar sola.
        </p>
      ) : (
        <p>
          Falló el intento {job.attempts} de {job.max_attempts}; se volverá a intentar el{' '}
          {formatDateTime(job.run_after)}.
        </p>
      )}
      {failed && (
        <button type="button" className="button" disabled={retry.isPending} onClick={() => retry.mutate(job.id)}>
          {retry.isPending ? 'Reintentando…' : 'Reintentar'}
        </button>
      )}
    </div>
  );
}

/**
 * Admins see when the server's work on this file went wrong, with 'Reintentar' once the attempts are used up:
 * a file that stays 'Procesando' is never a mystery. A job that failed for good because of the file's bytes
 * is not listed: the file itself says 'No se pudo procesar' and why, and trying again cannot help.
 */
export function FileJobProblems({ fileId }: { fileId: string }) {
  const jobs = useQuery(fileJobsQuery(fileId));
  const shown = jobs.data?.filter((job) => !job.failed_permanently) ?? [];
  if (!shown.length) return null;
  return (
    <section className="job-problems" aria-label="Problemas del servidor">
      {shown.map((job) => (
        <JobProblem key={job.id} fileId={fileId} job={job} />
      ))}
    </section>
  );
}
