import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { academyKeys } from './keys.ts';

/** Replaces the member's private-category access in one transaction. */
export async function setUserAccess(userId: string, categoryIds: string[]) {
  const { error } = await supabase.rpc('set_academy_user_categories', {
    p_user_id: userId,
    p_category_ids: categoryIds,
  });
  if (error) throw error;
}

export function useSetUserAccess(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (categoryIds: string[]) => setUserAccess(userId, categoryIds),
    onSuccess: async () => {
      notify.success('Acceso guardado');
      await queryClient.invalidateQueries({ queryKey: academyKeys.users() });
    },
    onError: (error) => notify.error(error, 'No se pudo guardar el acceso.'),
  });
}
