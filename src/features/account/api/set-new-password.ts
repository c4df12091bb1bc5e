import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';

export async function setNewPassword(password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

/** Failures are shown under the form by the screen; success gets a toast. */
export function useSetNewPassword() {
  return useMutation({
    mutationFn: setNewPassword,
    onSuccess: () => notify.success('Contraseña guardada'),
  });
}
