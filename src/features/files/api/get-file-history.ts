import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { fileKeys } from './keys.ts';

/** The file's history, newest first (written by database triggers; read under RLS). */
export async function getFileHistory(fileId: string, signal?: AbortSignal) {
  const { data, error } = await supabase
    .from('file_history')
    .select('id, changed_at, changed_by_email, action, changes')
    .eq('file_id', fileId)
    .order('changed_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(100)
    .abortSignal(signal!);
  if (error) throw error;
  return data;
}

export type FileHistoryEntry = Awaited<ReturnType<typeof getFileHistory>>[number];

export const fileHistoryQuery = (fileId: string) =>
  queryOptions({ queryKey: fileKeys.history(fileId), queryFn: ({ signal }) => getFileHistory(fileId, signal) });
