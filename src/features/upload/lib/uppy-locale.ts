import es_ES from '@uppy/locales/lib/es_ES.js';

/** Uppy's Spanish (its few messages that reach the person: restrictions, a file listed twice). */
export const uppyLocale = {
  ...es_ES,
  strings: {
    ...es_ES.strings,
    noDuplicates: "'%{fileName}' ya está en la lista",
  },
};
