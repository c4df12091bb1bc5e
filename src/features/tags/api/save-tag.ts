import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { catalogueKeys } from '../../../lib/catalogue/keys.ts';
import { notify } from '../../../lib/notify.ts';
import type { TagValues } from './tag-schemas.ts';

/** Creates a tag, or updates it when an id is given; resolves with its id. */
export async function saveTag(values: TagValues, id?: string): Promise<string> {
  const query = id ? supabase.from('tags').update(values).eq('id', id) : supabase.from('tags').insert(values);
  const { data, error } = await query.select('id').single();
  if (error) throw error;
  return data.id;
}

export function useSaveTag(id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: TagValues) => saveTag(values, id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: catalogueKeys.tags });
      notify.success(id ? 'Etiqueta guardada' : 'Etiqueta creada');
    },
    onError: (error) => notify.error(error, 'No se pudo guardar la etiqueta.'),
  });
}
