import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { fileKeys } from './keys.ts';

/**
 * Existing tags that the file's embedded keywords name (Spanish or English, accents and case aside) and that
 * the file does not carry yet: proposals for a person to accept, never applied by themselves.
 */
export async function getSuggestedTags(fileId: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .rpc('suggested_tags', { p_file_id: fileId })
    .select('id, name_es')
    .order('name_es')
    .abortSignal(signal);
  if (error) throw error;
  return data;
}

export const suggestedTagsQuery = (fileId: string) =>
  queryOptions({
    queryKey: fileKeys.suggestedTags(fileId),
    queryFn: ({ signal }) => getSuggestedTags(fileId, signal),
  });
