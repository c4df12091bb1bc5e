import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { academyKeys } from './keys.ts';

export interface CategoryFields {
  nameEs: string;
  nameEn: string;
  isPrivate: boolean;
}

const row = (fields: CategoryFields) => ({
  name_es: fields.nameEs.trim(),
  name_en: fields.nameEn.trim(),
  is_private: fields.isPrivate,
});

export async function createCategory(fields: CategoryFields) {
  const { error } = await supabase.from('academy_categories').insert(row(fields));
  if (error) throw error;
}

export async function updateCategory(categoryId: string, fields: CategoryFields) {
  const { error } = await supabase.from('academy_categories').update(row(fields)).eq('id', categoryId);
  if (error) throw error;
}

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCategory,
    onSuccess: async () => {
      notify.success('Categoría creada');
      await queryClient.invalidateQueries({ queryKey: academyKeys.categories() });
    },
    onError: (error) => notify.error(error, 'No se pudo crear la categoría.'),
  });
}

export function useUpdateCategory(categoryId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: CategoryFields) => updateCategory(categoryId, fields),
    onSuccess: async () => {
      notify.success('Categoría guardada');
      // A category turned public drops out of every member's access list, so member details refetch too.
      await queryClient.invalidateQueries({ queryKey: academyKeys.all });
    },
    onError: (error) => notify.error(error, 'No se pudo guardar la categoría.'),
  });
}
