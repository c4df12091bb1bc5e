import { spanishError } from '../errors.ts';

/** Refused before anything is sent: Storage would store nothing worth keeping. */
export const EMPTY_FILE_MESSAGE = 'No se pueden subir archivos vacíos (0 bytes)';

/**
 * The HTTP status Storage answered a failed TUS request with; undefined when no server answered. By the time
 * Uppy reports the error it has aborted the request, whose XHR then says status 0, so the status tus-js-client
 * wrote into its message ('response code: 403') is read when the response no longer has it.
 */
export function uploadErrorStatus(error: unknown): number | undefined {
  const value = error as { originalResponse?: { getStatus?: () => number } | null; message?: unknown } | null;
  const status = value?.originalResponse?.getStatus?.();
  if (typeof status === 'number' && status > 0) return status;
  const written = typeof value?.message === 'string' ? /response code: (\d{3})\b/.exec(value.message) : null;
  return written ? Number(written[1]) : undefined;
}

/**
 * Whether sending the same file again can succeed: after a lost connection, a server error, a full disk
 * (space may be freed), a conflict over the offset or too many requests, yes; after a refusal of the file
 * itself (no permission, too large, a type the bucket does not take, a bad request), never — so 'Reintentar'
 * is not offered for it.
 */
export function canRetryUpload(error: unknown): boolean {
  const status = uploadErrorStatus(error);
  return status === undefined || status >= 500 || status === 409 || status === 423 || status === 429;
}

/**
 * One Spanish sentence for a failed upload, from what Storage answered (tus errors are English, carry the
 * upload URL and would otherwise reach the person behind the Dashboard's '?').
 */
export function spanishUploadError(error: unknown): string {
  const status = uploadErrorStatus(error);
  switch (status) {
    case undefined:
      return 'No hay conexión con el servidor. Comprueba la red y pulsa «Reintentar».';
    case 401:
      return 'Tu sesión ha caducado. Vuelve a iniciar sesión y sube el archivo de nuevo.';
    case 403:
      return 'No tienes permiso para subir este archivo.';
    case 409:
    case 423:
      return 'Otra subida del mismo archivo estaba en curso. Pulsa «Reintentar».';
    case 413:
      return 'El archivo es demasiado grande para el servidor.';
    case 415:
      return 'El servidor no acepta este tipo de archivo.';
    case 429:
      return 'Demasiadas subidas a la vez. Espera un momento y pulsa «Reintentar».';
    case 507:
      return spanishError({ status });
    default:
      return status >= 500
        ? 'El servidor no pudo guardar el archivo. Pulsa «Reintentar» en unos minutos.'
        : 'El servidor rechazó el archivo y no se puede subir así.';
  }
}
