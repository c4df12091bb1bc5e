// Why an upload's processing failed, as the people who uploaded it read it, and whether trying again can help.
// A permanent failure is a property of the bytes (an empty file, an image that cannot be decoded, a name
// that promises a picture the bytes are not): the job runner ends its job at once (fail_server_job) and the
// file shows 'No se pudo procesar' with the reason. Anything else (the network, Storage answering 5xx, the
// database) is transient and retried with backoff; its reason is recorded too, in case the tries run out.

export type PermanentFailureKind = 'empty_file' | 'unsupported_type' | 'unreadable_image';

/** The sentence stored in files.processing_error and shown on the card and the detail. */
export const PERMANENT_FAILURE_REASONS: Record<PermanentFailureKind, string> = {
  empty_file: 'El archivo está vacío (0 bytes). Sube el archivo con su contenido.',
  unsupported_type: 'El contenido del archivo no es una imagen JPEG ni PNG, aunque su nombre lo indique.',
  unreadable_image: 'La imagen está dañada y no se puede leer. Sube una copia sana del archivo.',
};

/** Stored while a transient failure waits for its next try, and kept if the tries run out. */
export const TRANSIENT_FAILURE_REASON =
  'No se pudo leer el archivo en el servidor. Se volverá a intentar automáticamente.';

export class PermanentProcessingError extends Error {
  readonly reason: string;

  constructor(
    readonly kind: PermanentFailureKind,
    detail: string,
  ) {
    super(`${kind}: ${detail}`);
    this.name = 'PermanentProcessingError';
    this.reason = PERMANENT_FAILURE_REASONS[kind];
  }
}

/** The Spanish reason to record on the file for any failure. */
export function failureReason(failure: unknown): string {
  return failure instanceof PermanentProcessingError ? failure.reason : TRANSIENT_FAILURE_REASON;
}

/** The image types the product thumbnails (extensions jpg, jpeg and png). */
export const THUMBNAILED_TYPES = new Set(['image/jpeg', 'image/png']);

/** Storage's own statuses (the body's `statusCode`) for a picture it cannot decode or transform. */
const UNDECODABLE_STATUSES = new Set(['400', '415', '422']);

/**
 * A failed thumbnail render: Storage refusing the picture (e.g. 422 "Could not transform the image") means the
 * bytes cannot be decoded; a 5xx, a missing object or no answer at all may pass and is tried again.
 */
export function thumbnailFailure(error: { message: string; statusCode?: unknown }): Error {
  if (UNDECODABLE_STATUSES.has(String(error.statusCode ?? ''))) {
    return new PermanentProcessingError('unreadable_image', error.message);
  }
  return new Error(`thumbnail failed: ${error.message}`);
}
