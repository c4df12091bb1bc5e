import sanitize from 'sanitize-filename';

/** Largest single file the product accepts (1 GB, decimal). */
export const MAX_UPLOAD_BYTES = 1_000_000_000;
export const FILE_TOO_LARGE_MESSAGE = 'No se pueden subir archivos más grandes de 1GB';

const REPLACEMENT = '_';

const MAX_NAME_BYTES = 255;
/** Longer "extensions" are part of the name (e.g. 'notes.final version of the menu'). */
const MAX_EXTENSION_LENGTH = 10;
const utf8 = new TextEncoder();

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character (or a surrogate pair). */
function cutToBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    const size = utf8.encode(character).length;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += character.length;
  }
  return text.slice(0, end);
}

/**
 * / ? < > \ : * | " , and control characters, names made only of dots, reserved device
 * names and trailing dots or spaces are replaced; the result is cut to 255 bytes of UTF-8 without
 * splitting a character. `sanitize-filename` implements every rule but the comma, which we replace first.
 * The cut is ours and comes off the base name, so the extension survives: a 300-byte 'x…x.jpg' stays a
 * JPEG (with its thumbnail) instead of becoming an extensionless document.
 */
export function sanitizeFileName(name: string): string {
  const withoutCommas = name.replaceAll(',', REPLACEMENT);
  const clean = (text: string) => sanitize(text, { replacement: REPLACEMENT });
  if (utf8.encode(withoutCommas).length <= MAX_NAME_BYTES) return clean(withoutCommas);
  const dot = withoutCommas.lastIndexOf('.');
  const hasExtension = dot > 0 && withoutCommas.length - dot - 1 <= MAX_EXTENSION_LENGTH;
  if (!hasExtension) return clean(withoutCommas);
  const extension = clean(withoutCommas.slice(dot + 1));
  const base = cutToBytes(clean(withoutCommas.slice(0, dot)), MAX_NAME_BYTES - 1 - utf8.encode(extension).length);
  return clean(`${base.replace(/[. ]+$/, '') || REPLACEMENT}.${extension}`);
}

/** The extension as stored on the file record: lower case, without the dot; '' when there is none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** A name without its extension. */
export function fileBaseName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** The longest title the database takes (files.name_es and name_en). */
const MAX_TITLE_LENGTH = 500;

/**
 * The initial Spanish and English titles of an upload: the name the person gave the file, without its
 * extension, as they wrote it ('Menú: «especial» 2027, #1?'). Only the stored name is sanitized for file
 * systems; a title is text, so its symbols stay. Control characters (which no title may hold) become spaces.
 */
export function readableTitle(originalName: string): string {
  const title = fileBaseName(originalName)
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return [...title].slice(0, MAX_TITLE_LENGTH).join('').trim();
}

export function isTooLargeToUpload(sizeInBytes: number): boolean {
  return sizeInBytes > MAX_UPLOAD_BYTES;
}
