import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { collectionKeys } from './keys.ts';

/** The files of a collection, most recently added first, with what a thumbnail card needs. */
export async function getCollectionFiles(collectionId: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .from('collection_files')
    .select(
      'added_at, file:files!inner(id, name_es, extension, is_image, processing, published, object_path, preview_path, updated_at)',
    )
    .eq('collection_id', collectionId)
    .order('added_at', { ascending: false })
    .order('file_id')
    .abortSignal(signal);
  if (error) throw error;
  return data.map((row) => row.file);
}

export type CollectionFile = Awaited<ReturnType<typeof getCollectionFiles>>[number];

export const collectionFilesQueryOptions = (collectionId: string) =>
  queryOptions({
    queryKey: collectionKeys.files(collectionId),
    queryFn: ({ signal }) => getCollectionFiles(collectionId, signal),
  });
