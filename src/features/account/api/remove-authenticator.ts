import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { accountKeys } from './keys.ts';

export async function removeAuthenticator(factorId: string): Promise<void> {
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  if (error) throw error;
  // The session drops back to aal1: a fresh token says so to the database.
  await supabase.auth.refreshSession();
}

export function useRemoveAuthenticator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeAuthenticator,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountKeys.all });
      notify.success('Verificación en dos pasos desactivada');
    },
    onError: (error) => notify.error(error, 'No se pudo quitar la aplicación de autenticación.'),
  });
}
