import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { collectionKeys } from './keys.ts';

export async function getCollectionList(signal: AbortSignal) {
  const { data, error } = await supabase
    .from('collections')
    .select('id, name, is_public, file_count')
    .order('name')
    .order('id')
    .abortSignal(signal);
  if (error) throw error;
  return data;
}

export type CollectionSummary = Awaited<ReturnType<typeof getCollectionList>>[number];

export const collectionListQueryOptions = () =>
  queryOptions({ queryKey: collectionKeys.lists(), queryFn: ({ signal }) => getCollectionList(signal) });
