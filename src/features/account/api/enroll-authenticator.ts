import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { accountKeys } from './keys.ts';
import { getFactors } from './get-factors.ts';

export interface Enrolment {
  factorId: string;
  /** `data:image/svg+xml;…` of the QR code to scan. */
  qrCode: string;
  /** The same key as text, for apps that cannot scan. */
  secret: string;
}

/** Starts an enrolment; a half-finished one from before is dropped first (its name would clash). */
export async function enrollAuthenticator(): Promise<Enrolment> {
  for (const factor of await getFactors()) {
    if (factor.status !== 'verified') await supabase.auth.mfa.unenroll({ factorId: factor.id });
  }
  const { data, error } = await supabase.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName: 'Aplicación de autenticación',
  });
  if (error) throw error;
  return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}

export function useEnrollAuthenticator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enrollAuthenticator,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
    onError: (error) => notify.error(error, 'No se pudo empezar a activar la verificación en dos pasos.'),
  });
}
