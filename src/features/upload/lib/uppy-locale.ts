import es_ES from '@uppy/locales/lib/es_ES.js';

/**
 * Uppy's Spanish, with the spec's words where the spec has some (section 2 "Upload"). 'Ya existe' is kept
 * for a file whose bytes the library already has (issue 21), so the same file offered twice while it is
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
};
