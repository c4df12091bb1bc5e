import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { catalogueKeys } from '../../../lib/catalogue/keys.ts';
import { notify } from '../../../lib/notify.ts';
import { tagAdminKeys } from './keys.ts';

/**
 * One DELETE: the foreign keys cascade to the category's tags and their file links inside the same
 * statement, so the category never disappears with half of its tags left.
 */
export async function deleteCategory(id: string): Promise<void> {
  const { error } = await supabase.from('tag_categories').delete().eq('id', id);
  if (error) throw error;
}

export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCategory,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: catalogueKeys.tagCategories }),
        queryClient.invalidateQueries({ queryKey: catalogueKeys.tags }),
        queryClient.invalidateQueries({ queryKey: tagAdminKeys.all }),
      ]);
      notify.success('Categoría borrada');
    },
    onError: (error) => notify.error(error, 'No se pudo borrar la categoría.'),
  });
}
