import { describe, expect, it } from 'vitest';
import { spanishError } from './errors.ts';

describe('spanishError', () => {
  it('translates Postgres and PostgREST codes', () => {
    expect(spanishError({ code: '23505', message: 'duplicate key value violates unique constraint' })).toBe(
      'Ya existe un elemento con esos datos.',
    );
    expect(spanishError({ code: '42501', message: 'Only admins may do this' })).toBe(
      'No tienes permiso para hacer esto.',
    );
  });

  it('keeps a message the database raised in Spanish', () => {
    expect(spanishError({ code: 'P0001', message: 'No se pueden borrar archivos en proceso' })).toBe(
      'No se pueden borrar archivos en proceso',
    );
  });

  it('says which rule refused the save when the database names it in a hint, whatever the SQLSTATE', () => {
    expect(spanishError({ code: '23514', hint: 'RIGHTS_EXPIRED', message: 'rights expired' })).toBe(
      'No se pueden publicar archivos con los derechos caducados',
    );
  });

  it('never shows an English library message, nor an upload URL', () => {
    const tus = new Error(
      'tus: failed to upload chunk at offset 0, caused by Error: connection refused, originated from request (method: PATCH, url: http://127.0.0.1:54321/storage/v1/upload/resumable/abc)',
    );
    expect(spanishError(tus)).toBe('No hay conexión con el servidor. Comprueba la red e inténtalo de nuevo.');
    expect(spanishError(new Error('Something exploded'))).toBe('Algo salió mal. Inténtalo de nuevo.');
    expect(spanishError(new TypeError('Failed to fetch'))).toMatch(/^No hay conexión/);
  });

  it('says the server is out of space, from Storage and from a tus chunk', () => {
    const full = 'No queda espacio en el servidor para guardar el archivo. Avisa a un administrador.';
    expect(spanishError({ statusCode: '507', code: 'InsufficientStorage', message: 'There is no space left' })).toBe(
      full,
    );
    const tus = new Error(
      'tus: unexpected response while uploading chunk, originated from request (method: PATCH, url: http://127.0.0.1:54321/storage/v1/upload/resumable/abc, response code: 507, response text: There is no space left to store the object, request id: n/a)',
    );
    expect(spanishError(tus)).toBe(full);
  });
});
