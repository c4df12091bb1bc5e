import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { publicPageKeys } from './keys.ts';
import { isUuid, publicCollectionSchema } from './schemas.ts';

/** A public collection with its published files, or null when it is private or unknown. */
export async function getPublicCollection(id: string, signal: AbortSignal) {
  if (!isUuid(id)) return null;
  const { data, error } = await supabase.rpc('get_public_collection', { p_collection_id: id }).abortSignal(signal);
  if (error) throw error;
  return data === null ? null : publicCollectionSchema.parse(data);
}

export const publicCollectionQueryOptions = (id: string) =>
  queryOptions({ queryKey: publicPageKeys.collection(id), queryFn: ({ signal }) => getPublicCollection(id, signal) });
