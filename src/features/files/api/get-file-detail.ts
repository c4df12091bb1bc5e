import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { fileKeys } from './keys.ts';

/**
 * The file with its tags, collections and what post-processing read from its embedded metadata (one row or
 * null; the staff who may read the file may read it, and it never leaves the private screens).
 */
export async function getFileDetail(id: string, signal?: AbortSignal) {
  const { data, error } = await supabase
    .from('files')
    .select('*, file_tags(tag_id), collection_files(collection_id), file_metadata(*)')
    .eq('id', id)
    .abortSignal(signal!)
    .single();
  if (error) throw error;
  return data;
}

export type FileDetail = Awaited<ReturnType<typeof getFileDetail>>;

export const fileDetailQuery = (id: string) =>
  queryOptions({ queryKey: fileKeys.detail(id), queryFn: ({ signal }) => getFileDetail(id, signal) });
