import { describe, expect, it } from 'vitest';
import { DetailedError } from 'tus-js-client';
import { canRetryUpload, spanishUploadError } from './upload-errors.ts';

/** A tus error as tus-js-client raises it after Storage answered `status`. */
function answered(status: number) {
  const error = new DetailedError('tus: unexpected response while creating upload');
  error.originalResponse = { getStatus: () => status } as never;
  return error;
}

describe('upload errors', () => {
  it("offer 'Reintentar' only where another try can succeed", () => {
    expect(canRetryUpload(new Error('tus: failed to upload chunk'))).toBe(true);
    for (const status of [500, 503, 507, 409, 429]) expect(canRetryUpload(answered(status))).toBe(true);
    for (const status of [400, 403, 404, 413, 415]) expect(canRetryUpload(answered(status))).toBe(false);
  });

  it('read the status from the message once the request was aborted (its XHR then says 0)', () => {
    const aborted = new DetailedError(
      'tus: unexpected response while creating upload, originated from request (method: POST, url: http://x/storage/v1/upload/resumable, response code: 403, response text: new row violates row-level security policy, request id: n/a)',
    );
    aborted.originalResponse = { getStatus: () => 0 } as never;
    expect(canRetryUpload(aborted)).toBe(false);
    expect(spanishUploadError(aborted)).toBe('No tienes permiso para subir este archivo.');
    const lost = new DetailedError(
      'tus: failed to create upload, caused by [object ProgressEvent], response code: n/a',
    );
    expect(canRetryUpload(lost)).toBe(true);
  });

  it('say in Spanish what happened, never the English of tus', () => {
    expect(spanishUploadError(answered(403))).toBe('No tienes permiso para subir este archivo.');
    expect(spanishUploadError(answered(404))).toBe('El servidor rechazó el archivo y no se puede subir así.');
    expect(spanishUploadError(answered(503))).toBe(
      'El servidor no pudo guardar el archivo. Pulsa «Reintentar» en unos minutos.',
    );
    expect(spanishUploadError(new Error('tus: failed to upload chunk at offset 0'))).toBe(
      'No hay conexión con el servidor. Comprueba la red y pulsa «Reintentar».',
    );
  });
});
