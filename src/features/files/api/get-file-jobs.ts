import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { fileKeys } from './keys.ts';

const JOB_COLUMNS = 'id, kind, state, attempts, max_attempts, run_after, failed_permanently';

/**
 * The jobs on one file that went wrong: failed for good (waiting for 'Reintentar') or failed at least once
 * and waiting for their next attempt. RLS lets only admins read server_jobs; anyone else gets none. The
 * technical message (last_error) is not read: it is English for whoever runs the server, not for the app.
 */
export async function getFileJobs(fileId: string, signal?: AbortSignal) {
  let request = supabase
    .from('server_jobs')
    .select(JOB_COLUMNS)
    .eq('file_id', fileId)
    .or('state.eq.failed,and(state.in.(pending,running),last_error.not.is.null)')
    .order('id', { ascending: false });
  if (signal) request = request.abortSignal(signal);
  const { data, error } = await request;
  if (error) throw error;
  return data;
}

export type FileJob = Awaited<ReturnType<typeof getFileJobs>>[number];

// server_jobs is not sent by Realtime (its rows churn with every change to the library): while a job is still
// to run, the panel asks again on this interval.
const WHILE_RETRYING_MS = 5000;

export const fileJobsQuery = (fileId: string) =>
  queryOptions({
    queryKey: fileKeys.jobs(fileId),
    queryFn: ({ signal }) => getFileJobs(fileId, signal),
    refetchInterval: (query) => (query.state.data?.some((job) => job.state !== 'failed') ? WHILE_RETRYING_MS : false),
  });
