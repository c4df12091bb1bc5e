import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { catalogueKeys } from '../../../lib/catalogue/keys.ts';
import { notify } from '../../../lib/notify.ts';
import { tagAdminKeys } from './keys.ts';

/** Deleting a tag removes its file links in the same statement (foreign key cascade). */
export async function deleteTag(id: string): Promise<void> {
  const { error } = await supabase.from('tags').delete().eq('id', id);
  if (error) throw error;
}

export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTag,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: catalogueKeys.tags }),
        queryClient.invalidateQueries({ queryKey: tagAdminKeys.all }),
      ]);
      notify.success('Etiqueta borrada');
    },
    onError: (error) => notify.error(error, 'No se pudo borrar la etiqueta.'),
  });
}
