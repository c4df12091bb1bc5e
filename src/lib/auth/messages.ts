import { isAuthApiError, isAuthRetryableFetchError } from '@supabase/supabase-js';

export const REQUIRED_FIELDS_MESSAGE = 'Todos los campos son obligatorios';

/**
 * Why a signed-in account was turned away (spec section 4): a staff role that may not use this site, no staff
 * role at all, or the role could not be read (the account is not let in on doubt).
 */
export type LoginRefusal = 'NOT_ADMIN' | 'LOGIN_NOT_PERMITTED' | 'ROLE_CHECK_FAILED';

// The spec's codes (NOT_ADMIN, LOGIN_NOT_PERMITTED) stay in the auth state; people read a sentence.
export const refusalMessages: Record<LoginRefusal, string> = {
  NOT_ADMIN: 'Tu usuario no tiene permiso para entrar en la Mediateca.',
  LOGIN_NOT_PERMITTED: 'Tu usuario no tiene un rol con acceso a la Mediateca.',
  ROLE_CHECK_FAILED: 'No se pudo comprobar tu usuario. Comprueba tu conexión e inténtalo de nuevo.',
};

/** The Spanish text shown under the login form for a failed sign-in. */
export function signInErrorMessage(error: unknown): string {
  if (isAuthRetryableFetchError(error))
    return 'No se pudo conectar con el servidor. Comprueba tu conexión e inténtalo de nuevo.';
  if (isAuthApiError(error)) {
    if (error.code === 'invalid_credentials') return 'El correo electrónico o la contraseña no son correctos.';
    if (error.code === 'email_not_confirmed') return 'Tu correo electrónico aún no está confirmado.';
    if (error.code === 'user_banned') return 'Tu usuario está bloqueado.';
    if (error.status === 429) return 'Demasiados intentos. Espera un momento e inténtalo de nuevo.';
  }
  return 'No se pudo iniciar sesión. Inténtalo de nuevo.';
}
