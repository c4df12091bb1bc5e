import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { collectionKeys } from './keys.ts';

export async function createCollection(name: string) {
  const { data, error } = await supabase.from('collections').insert({ name }).select('id, name').single();
  if (error) throw error;
  return data;
}

export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCollection,
    onSuccess: (collection) => notify.success(`Colección «${collection.name}» creada`),
    onError: (error) => notify.error(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}
