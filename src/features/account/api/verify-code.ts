import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { accountKeys } from './keys.ts';

/** Checks a 6-digit code of the authenticator app; on success the session is aal2. */
export async function verifyCode({ factorId, code }: { factorId: string; code: string }): Promise<void> {
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) throw error;
}

/** Confirms a new authenticator ('Mi cuenta'); a wrong code is shown under the field by the screen. */
export function useConfirmAuthenticator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyCode,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountKeys.all });
      notify.success('Verificación en dos pasos activada');
    },
  });
}

/** The second step of signing in; the auth provider takes over once the session is aal2. */
export function useSignInCode() {
  return useMutation({ mutationFn: verifyCode });
}
