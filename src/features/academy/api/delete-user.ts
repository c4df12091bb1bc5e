import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { academyKeys } from './keys.ts';

/**
 * Deletes an academy member: their grants and likes go with them (foreign keys cascade), like totals follow.
 * Their Auth account, if any, stays: it signs in to nothing once the member row is gone.
 */
export async function deleteAcademyUser(userId: string) {
  const { error } = await supabase.from('academy_users').delete().eq('id', userId);
  if (error) throw error;
}

export function useDeleteAcademyUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAcademyUser,
    onSuccess: async () => {
      notify.success('Usuario borrado');
      await queryClient.invalidateQueries({ queryKey: academyKeys.all });
    },
    onError: (error) => notify.error(error, 'No se pudo borrar el usuario.'),
  });
}
