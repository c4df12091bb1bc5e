import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { collectionKeys } from './keys.ts';

/** One collection, or null when it does not exist (deleted meanwhile, or a mistyped URL). */
export async function getCollection(id: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .from('collections')
    .select('id, name, is_public, file_count')
    .eq('id', id)
    .abortSignal(signal)
    .maybeSingle();
  if (error) throw error;
  return data;
}

export const collectionQueryOptions = (id: string) =>
  queryOptions({ queryKey: collectionKeys.detail(id), queryFn: ({ signal }) => getCollection(id, signal) });
