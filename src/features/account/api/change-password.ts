import { useMutation } from '@tanstack/react-query';
import { isAuthApiError } from '@supabase/auth-js';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';

/** Saved, or Auth wants the code it has just mailed before it will save (secure password change). */
export type PasswordChange = 'saved' | 'code-sent';

/**
 * Changes the signed-in person's password. With secure password change on, Auth refuses a session older than
 * a day ('reauthentication_needed') until it is given the code its reauthenticate call mails: that code is
 * asked for then, and sent back as the nonce.
 */
export async function changePassword({
  password,
  nonce,
}: {
  password: string;
  nonce?: string;
}): Promise<PasswordChange> {
  const { error } = await supabase.auth.updateUser(nonce ? { password, nonce } : { password });
  if (!error) return 'saved';
  if (!nonce && isAuthApiError(error) && error.code === 'reauthentication_needed') {
    await sendReauthenticationCode();
    return 'code-sent';
  }
  throw error;
}

export async function sendReauthenticationCode(): Promise<void> {
  const { error } = await supabase.auth.reauthenticate();
  if (error) throw error;
}

/** Failures are shown under the form by the panel; a saved password gets a toast. */
export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (outcome) => {
      if (outcome === 'saved') notify.success('Contraseña cambiada');
    },
  });
}

export function useSendReauthenticationCode() {
  return useMutation({ mutationFn: sendReauthenticationCode });
}
