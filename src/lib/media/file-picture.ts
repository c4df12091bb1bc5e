/** What a file row says about its picture (files, trashed files and collection files all have these). */
export interface PicturedFile {
  is_image: boolean | null;
  object_path: string;
  preview_path: string | null;
  processing?: boolean;
  /** Set when processing failed for good ('No se pudo procesar'): there is no picture to ask for. */
  processing_error?: string | null;
}

/**
 * The stored object that pictures a file: an image's own object, a PDF's first page rendered by
 * post-processing (`preview_path`), or null for other documents, PDFs that could not be rendered, files
 * still processing and files whose processing failed — those show the extension tile (or the spinner). Both kinds of picture go through the
 * same signed, transformed URLs.
 */
export function pictureOf(file: PicturedFile): string | null {
  if (file.processing || file.processing_error) return null;
  if (file.is_image) return file.object_path;
  return file.preview_path ?? null;
}
