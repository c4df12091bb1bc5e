import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { uploadKeys } from './keys.ts';

/**
 * What the server has found out about files this screen just uploaded: whether post-processing is done
 * and, once it has the checksum, which earlier file has the same bytes (`duplicate_of`, set by the
 * database).
 */
export async function getRecordedFiles(ids: readonly string[], signal?: AbortSignal) {
  const { data, error } = await supabase
    .from('files')
    .select('id, processing, duplicate_of')
    .in('id', [...ids])
    .abortSignal(signal!);
  if (error) throw error;
  return data;
}

export type RecordedFile = Awaited<ReturnType<typeof getRecordedFiles>>[number];

export const recordedFilesQuery = (ids: readonly string[]) =>
  queryOptions({
    queryKey: uploadKeys.recordedFile(ids),
    queryFn: ({ signal }) => getRecordedFiles(ids, signal),
    enabled: ids.length > 0,
  });

export const useRecordedFiles = (ids: readonly string[]) => useQuery(recordedFilesQuery(ids));
