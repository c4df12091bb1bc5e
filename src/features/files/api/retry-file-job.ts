import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { fileKeys } from './keys.ts';

export async function retryServerJob(jobId: number) {
  const { data, error } = await supabase.rpc('retry_server_job', { p_id: jobId });
  if (error) throw error;
  return data;
}

/** 'Reintentar' on a failed job of one file (admins; public.retry_server_job refuses anyone else). */
export function useRetryFileJob(fileId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryServerJob,
    onSuccess: () => {
      notify.success('Se volverá a intentar ahora.');
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: fileKeys.jobs(fileId) }),
        queryClient.invalidateQueries({ queryKey: fileKeys.detail(fileId) }),
      ]);
    },
    onError: (error) => {
      const hint = (error as { hint?: string }).hint;
      // Someone else pressed it first, or the job got going again on its own meanwhile.
      if (hint === 'JOB_ALREADY_PENDING' || hint === 'JOB_NOT_FAILED') {
        notify.info('Ya se está volviendo a intentar.');
        return queryClient.invalidateQueries({ queryKey: fileKeys.jobs(fileId) });
      }
      notify.error(error, 'No se pudo volver a intentar.');
    },
  });
}
