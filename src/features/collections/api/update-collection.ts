import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { collectionKeys } from './keys.ts';

export type CollectionChange = { name: string } | { is_public: boolean };

export async function updateCollection({ id, change }: { id: string; change: CollectionChange }) {
  const { data, error } = await supabase.from('collections').update(change).eq('id', id).select('id').maybeSingle();
  if (error) throw error;
  if (!data) throw new Error('La colección ya no existe');
}

const successMessage = (change: CollectionChange) =>
  'name' in change
    ? 'Nombre de la colección guardado'
    : change.is_public
      ? 'La colección es pública: su enlace ya se puede compartir'
      : 'La colección ya no es pública';

export function useUpdateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCollection,
    onSuccess: (_, { change }) => notify.success(successMessage(change)),
    onError: (error) => notify.error(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}
