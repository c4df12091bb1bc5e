import { useSearchParams } from 'react-router-dom';

export type Language = 'es' | 'en';

/** The page language lives in the URL (?lang=en), so a visitor can share the English version. */
export function useLanguage(): [Language, (language: Language) => void] {
  const [params, setParams] = useSearchParams();
  const language: Language = params.get('lang') === 'en' ? 'en' : 'es';
  const setLanguage = (next: Language) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'en') updated.set('lang', 'en');
        else updated.delete('lang');
        return updated;
      },
      { replace: true },
    );
  return [language, setLanguage];
}

export const texts = {
  es: {
    download: 'Descargar',
    downloadAll: 'Descargar todo (ZIP)',
    size: 'Tamaño',
    type: 'Tipo',
    dimensions: 'Dimensiones',
    creator: 'Autor',
    credit: 'Crédito',
    copyright: 'Copyright',
    files: (n: number) => `${n.toLocaleString('es-ES')} ${n === 1 ? 'archivo' : 'archivos'}`,
    emptyCollection: 'Esta colección todavía no tiene archivos publicados.',
    fileUnavailable: 'Este archivo no está disponible',
    collectionUnavailable: 'Esta colección no está disponible',
    unavailableText:
      'Puede que el enlace no sea correcto o que ya no se comparta. Pide un enlace nuevo a quien te lo envió.',
    loading: 'Cargando…',
    loadError: 'No se pudo cargar la página. Comprueba tu conexión e inténtalo de nuevo.',
    retry: 'Reintentar',
    languageLabel: 'Idioma',
    openLarge: 'Ver a tamaño grande',
    sharedCollection: 'Colección compartida',
    sharedFile: 'Archivo compartido',
  },
  en: {
    download: 'Download',
    downloadAll: 'Download all (ZIP)',
    size: 'Size',
    type: 'Type',
    dimensions: 'Dimensions',
    creator: 'Author',
    credit: 'Credit',
    copyright: 'Copyright',
    files: (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'file' : 'files'}`,
    emptyCollection: 'This collection has no published files yet.',
    fileUnavailable: 'This file is not available',
    collectionUnavailable: 'This collection is not available',
    unavailableText: 'The link may be wrong or no longer shared. Ask whoever sent it for a new one.',
    loading: 'Loading…',
    loadError: 'The page could not be loaded. Check your connection and try again.',
    retry: 'Try again',
    languageLabel: 'Language',
    openLarge: 'View large',
    sharedCollection: 'Shared collection',
    sharedFile: 'Shared file',
  },
} as const;
