import { fileExtension } from '../../../lib/uploads/file-name.ts';

/** Thumbnails only while fewer than this many uploads are listed, and only for these image types. */
export const THUMBNAIL_LIMIT = 5;
const PREVIEW_EXTENSIONS = new Set(['jpg', 'jpeg', 'png']);

/**
 * Files from this size on are hashed only when some library file has exactly their size: hashing 10^9 bytes
 * costs seconds before the first byte could go, and a copy always has the same size. Smaller files are
 * always hashed (milliseconds). The database's size index starts at the same size.
 */
export const LARGE_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Where one listed upload stands. Before Uppy has it: `checking` (hashed and asked about), `duplicate` (the
 * library has the bytes: the person decides). Then Uppy's: `queued`, `uploading`, `paused`, `recording` (the
 * file record being written), `done`, `error`.
 */
export type UploadPhase = 'checking' | 'duplicate' | 'queued' | 'uploading' | 'paused' | 'recording' | 'done' | 'error';

/** The copy the library already has: a link when the person may open it, else only that it exists. */
export interface ExistingCopy {
  fileId: string | null;
  name: string | null;
  /** The copy is another upload of this same list, not a file of the library. */
  inThisList?: boolean;
}

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  file: File;
  phase: UploadPhase;
  /** 0 to 1: of the bytes hashed while checking, of the bytes sent after. */
  progress: number;
  error?: string;
  /** Whether 'Reintentar' can succeed (a lost connection, a server error) or the file itself was refused. */
  retryable?: boolean;
  existing?: ExistingCopy;
  checksum?: string;
  uppyId?: string;
}

/** Still on its way or waiting for the person: while any is, the batch is not over. */
export const isOpen = (item: UploadItem) => item.phase !== 'done' && item.phase !== 'error';

/**
 * The batch is over once nothing is open and something went up: the finished uploads leave the list (failed
 * ones stay, red, until the person retries or removes them).
 */
export function finishedBatch(items: readonly UploadItem[]): UploadItem[] | null {
  if (items.some(isOpen)) return null;
  const done = items.filter((item) => item.phase === 'done');
  return done.length > 0 ? done : null;
}

export function canPreview(name: string): boolean {
  return PREVIEW_EXTENSIONS.has(fileExtension(name));
}

/** The same file offered again while it is still listed (and not finished): the list says so once. */
export function isListed(items: readonly UploadItem[], file: File): boolean {
  return items.some(
    (item) =>
      item.phase !== 'done' &&
      item.file.name === file.name &&
      item.file.size === file.size &&
      item.file.lastModified === file.lastModified,
  );
}

/** Another upload of this list with these bytes (hashed earlier, not skipped), for a copy inside one batch. */
export function copyInList(items: readonly UploadItem[], key: string, checksum: string): ExistingCopy | null {
  const other = items.find((item) => item.key !== key && item.checksum === checksum && item.phase !== 'duplicate');
  return other ? { fileId: null, name: other.name, inThisList: true } : null;
}

/** What the list says under a file's name. */
export function phaseText(item: UploadItem): string {
  const percent = `${Math.floor(item.progress * 100)} %`;
  switch (item.phase) {
    case 'checking':
      return item.progress > 0 ? `Comprobando si ya existe… ${percent}` : 'Comprobando si ya existe…';
    case 'duplicate':
      return 'Ya está en la biblioteca';
    case 'queued':
      return 'En espera';
    case 'uploading':
      return `Subiendo… ${percent}`;
    case 'paused':
      return `En pausa (${percent})`;
    case 'recording':
      return 'Registrando el archivo…';
    case 'done':
      return 'Subido';
    case 'error':
      return item.error ?? 'No se pudo subir.';
  }
}

/**
 * The list's heading: which file of how many is on its way ('Subiendo 2 de 3'), then how the batch stands.
 * Counts the whole list, so 45 queued files never read as 'Subiendo 41'.
 */
export function listHeading(items: readonly UploadItem[]): string {
  const total = items.length;
  const done = items.filter((item) => item.phase === 'done').length;
  const failed = items.filter((item) => item.phase === 'error').length;
  const sending = ['checking', 'queued', 'uploading', 'recording'];
  if (items.some((item) => sending.includes(item.phase))) return `Subiendo ${Math.min(total, done + 1)} de ${total}`;
  if (items.some((item) => item.phase === 'duplicate')) {
    const waiting = items.filter((item) => item.phase === 'duplicate').length;
    return waiting === 1 ? 'Un archivo espera tu decisión' : `${waiting} archivos esperan tu decisión`;
  }
  if (items.some((item) => item.phase === 'paused')) return `En pausa: ${done} de ${total} subidos`;
  if (failed === 0) return `${done} de ${total} subidos`;
  if (failed === total)
    return total === 1 ? 'No se pudo subir el archivo' : `No se pudo subir ningún archivo (${total})`;
  return `${done} de ${total} subidos, ${failed} con error`;
}
