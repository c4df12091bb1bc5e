import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { catalogueKeys } from '../../../lib/catalogue/keys.ts';
import { notify } from '../../../lib/notify.ts';
import type { CategoryValues } from './tag-schemas.ts';

/** Creates a category, or updates it when an id is given; resolves with its id. */
export async function saveCategory(values: CategoryValues, id?: string): Promise<string> {
  const query = id
    ? supabase.from('tag_categories').update(values).eq('id', id)
    : supabase.from('tag_categories').insert(values);
  const { data, error } = await query.select('id').single();
  if (error) throw error;
  return data.id;
}

export function useSaveCategory(id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: CategoryValues) => saveCategory(values, id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: catalogueKeys.tagCategories });
      notify.success(id ? 'Categoría guardada' : 'Categoría creada');
    },
    onError: (error) => notify.error(error, 'No se pudo guardar la categoría.'),
  });
}
