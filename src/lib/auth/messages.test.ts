import { describe, expect, it } from 'vitest';
import { signInFailureMessage } from './messages.ts';

describe('signInFailureMessage', () => {
  it("says Auth's answers and the browsers' network failures in Spanish", () => {
    expect(signInFailureMessage('Invalid login credentials')).toBe(
      'El correo electrónico o la contraseña no son correctos.',
    );
    expect(signInFailureMessage('Email not confirmed')).toBe('Tu correo electrónico aún no está confirmado.');
    expect(signInFailureMessage('User is banned')).toBe('Tu usuario está bloqueado.');
    expect(signInFailureMessage('Request rate limit reached')).toBe(
      'Demasiados intentos. Espera un momento e inténtalo de nuevo.',
    );
    for (const network of ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed'])
      expect(signInFailureMessage(network)).toBe(
        'No se pudo conectar con el servidor. Comprueba tu conexión e inténtalo de nuevo.',
      );
  });

  it('gives the general sentence for anything else', () => {
    expect(signInFailureMessage('{}')).toBe('No se pudo iniciar sesión. Inténtalo de nuevo.');
  });
});
