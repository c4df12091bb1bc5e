import sanitize from 'sanitize-filename';

/** Largest single file the product accepts (spec section 9: 1 GB, decimal). */
export const MAX_UPLOAD_BYTES = 1_000_000_000;
export const FILE_TOO_LARGE_MESSAGE = 'No se pueden subir archivos más grandes de 1GB';

const REPLACEMENT = '_';

/**
 * Spec section 5: / ? < > \ : * | " , and control characters, names made only of dots, reserved device
 * names and trailing dots or spaces are replaced; the result is cut to 255 bytes of UTF-8 without
 * splitting a character. `sanitize-filename` implements every rule but the comma, which we replace first.
 */
export function sanitizeFileName(name: string): string {
  return sanitize(name.replaceAll(',', REPLACEMENT), { replacement: REPLACEMENT });
}

/** The extension as stored on the file record: lower case, without the dot; '' when there is none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The original name without its extension: the initial Spanish and English titles of an upload. */
export function fileBaseName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

export function isTooLargeToUpload(sizeInBytes: number): boolean {
  return sizeInBytes > MAX_UPLOAD_BYTES;
}
