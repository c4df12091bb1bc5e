import { isAuthApiError } from '@supabase/supabase-js';
import { spanishError } from '../../../lib/errors.ts';

/** Auth's refusals on the account screens, in Spanish; anything else as the app says it everywhere. */
export function accountErrorMessage(error: unknown, fallback: string): string {
  if (isAuthApiError(error)) {
    if (error.code === 'same_password') return 'La nueva contraseña debe ser distinta de la anterior.';
    if (error.code === 'current_password_invalid') return 'La contraseña actual no es correcta.';
    if (error.code === 'current_password_required') return 'Escribe tu contraseña actual.';
    if (error.code === 'weak_password') return 'La contraseña debe tener al menos 6 caracteres.';
    if (error.code === 'reauthentication_not_valid') {
      return 'El código no es correcto o ha caducado. Revisa el último correo o pide otro código.';
    }
    if (error.code === 'over_email_send_rate_limit') {
      return 'Acabamos de enviarte un correo. Espera unos segundos antes de pedir otro.';
    }
    if (error.code === 'mfa_verification_failed')
      return 'El código no es correcto. Revisa la aplicación y vuelve a escribirlo.';
  }
  return spanishError(error, fallback);
}
