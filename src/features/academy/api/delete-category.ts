import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { academyKeys } from './keys.ts';

/** The database removes it from each video's categories and each member's access (on delete cascade). */
export async function deleteCategory(categoryId: string) {
  const { error } = await supabase.from('academy_categories').delete().eq('id', categoryId);
  if (error) throw error;
}

export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCategory,
    onSuccess: async () => {
      notify.success('Categoría borrada');
      await queryClient.invalidateQueries({ queryKey: academyKeys.all });
    },
    onError: (error) => notify.error(error, 'No se pudo borrar la categoría.'),
  });
}
