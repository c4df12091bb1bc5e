import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { collectionKeys } from './keys.ts';

export async function removeCollectionFile({ collectionId, fileId }: { collectionId: string; fileId: string }) {
  const { error } = await supabase.rpc('remove_file_from_collection', {
    p_collection_id: collectionId,
    p_file_id: fileId,
  });
  if (error) throw error;
}

export function useRemoveCollectionFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCollectionFile,
    onSuccess: () => notify.success('Archivo quitado de la colección'),
    onError: (error) => notify.error(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}
