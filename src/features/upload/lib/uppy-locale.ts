import es_ES from '@uppy/locales/lib/es_ES.js';

/**
 * Uppy's Spanish, with the product's own words where it has some. 'Ya existe' is kept
 * for a file whose bytes the library already has, so the same file offered twice while it is
 * still listed is said differently.
 */
export const uppyLocale = {
  ...es_ES,
  strings: {
    ...es_ES.strings,
    noDuplicates: "'%{fileName}' ya está en la lista",
  },
};

export const dashboardStrings = {
  dropPasteFiles: 'Arrastrar archivos aquí o %{browseFiles}',
  browseFiles: 'Seleccionar archivos',
  dashboardTitle: 'Subir archivos',
  dropHint: 'Suelta los archivos aquí',
  filesUploadedOfTotal: {
    0: '%{complete} de %{smart_count} completado',
    1: '%{complete} de %{smart_count} completados',
  },
};

interface BatchFile {
  progress: { uploadComplete?: boolean };
  error?: string | null;
}

/**
 * The Dashboard's title while a batch uploads: which file of how many, 'Subiendo 2 de 3'. Uppy's own
 * 'Subiendo %{smart_count} archivos' counts the files not finished yet (one at a time, they all count as
 * started), so it read 'Subiendo 41 archivos' with 4 of 45 done. Uppy's strings only take that count, so
 * the title is written out for the batch as it stands. Uppy shows this title while any file is started and
 * not complete, which a failed file stays: once nothing is on its way, the title says how the batch ended.
 */
export function uploadingTitle(files: readonly BatchFile[]): string {
  const uploaded = files.filter((file) => file.progress.uploadComplete).length;
  const failed = files.filter((file) => file.error).length;
  const sending = files.some((file) => !file.error && !file.progress.uploadComplete);
  if (sending || failed === 0) return `Subiendo ${Math.min(files.length, uploaded + 1)} de ${files.length}`;
  if (failed === files.length) {
    return files.length === 1 ? 'No se pudo subir el archivo' : `No se pudo subir ningún archivo (${files.length})`;
  }
  const done = files.filter((file) => file.progress.uploadComplete && !file.error).length;
  return `${done} de ${files.length} subidos, ${failed} con error`;
}
