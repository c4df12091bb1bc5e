import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { resetPasswordUrl } from '../paths.ts';

/**
 * Asks Auth to mail a recovery link that comes back to /reset-password. Auth answers the same for addresses
 * without an account, so the screen cannot (and does not) tell who has one.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  const { error } = await supabase.auth.resetPasswordForEmail(email.trim(), { redirectTo: resetPasswordUrl() });
  if (error) throw error;
}

/** The screen shows the confirmation (or the failure under the form) itself: no toast. */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
