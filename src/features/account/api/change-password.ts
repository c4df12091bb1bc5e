import { useMutation } from '@tanstack/react-query';
import { isAuthApiError } from '@supabase/auth-js';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';

/** Saved, or Auth wants the code it has just mailed before it will save (secure password change). */
export type PasswordChange = 'saved' | 'code-sent';

/**
 * Changes the signed-in person's password. Auth checks the current one itself (it refuses a wrong one with
 * 'current_password_invalid' and changes nothing), so a stolen open session cannot set a new password. With
 * secure password change on, Auth also refuses a session older than a day ('reauthentication_needed') until
 * it is given the code its reauthenticate call mails: that code is asked for then, and sent back as the nonce.
 */
export async function changePassword({
  current,
  password,
  nonce,
}: {
  current: string;
  password: string;
  nonce?: string;
}): Promise<PasswordChange> {
  const { error } = await supabase.auth.updateUser({
    password,
    current_password: current,
    ...(nonce ? { nonce } : {}),
  });
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
