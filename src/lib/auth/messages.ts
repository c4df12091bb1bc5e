export const REQUIRED_FIELDS_MESSAGE = 'Todos los campos son obligatorios';

/**
 * Why a signed-in account was turned away: a staff role that may not use this site, no staff
 * role at all, or the role could not be read (the account is not let in on doubt).
 */
export type LoginRefusal = 'NOT_ADMIN' | 'LOGIN_NOT_PERMITTED' | 'ROLE_CHECK_FAILED';

// The error codes (NOT_ADMIN, LOGIN_NOT_PERMITTED) stay in the auth state; people read a sentence.
export const refusalMessages: Record<LoginRefusal, string> = {
  NOT_ADMIN: 'Tu usuario no tiene permiso para entrar en la Mediateca.',
  LOGIN_NOT_PERMITTED: 'Tu usuario no tiene un rol con acceso a la Mediateca.',
  ROLE_CHECK_FAILED: 'No se pudo comprobar tu usuario. Comprueba tu conexión e inténtalo de nuevo.',
};

const SIGN_IN_FAILURES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^invalid login credentials$/i, 'El correo electrónico o la contraseña no son correctos.'],
  [/^email not confirmed$/i, 'Tu correo electrónico aún no está confirmado.'],
  [/banned/i, 'Tu usuario está bloqueado.'],
  [/rate limit|security purposes/i, 'Demasiados intentos. Espera un momento e inténtalo de nuevo.'],
  [/fetch|network|load failed/i, 'No se pudo conectar con el servidor. Comprueba tu conexión e inténtalo de nuevo.'],
];

/**
 * The Spanish text shown under the login form for a failed sign-in, from the text Auth UI shows for it.
 * Auth UI signs in itself and shows only the error's message, never its code: Auth's own English sentence
 * ('Invalid login credentials', 'Email not confirmed', …) or, when the server cannot be reached, the
 * browser's ('Failed to fetch' in Chromium, 'NetworkError when attempting to fetch resource.' in Firefox,
 * 'Load failed' in Safari). Anything else gets the general sentence.
 */
export function signInFailureMessage(shown: string): string {
  return (
    SIGN_IN_FAILURES.find(([pattern]) => pattern.test(shown))?.[1] ?? 'No se pudo iniciar sesión. Inténtalo de nuevo.'
  );
}
