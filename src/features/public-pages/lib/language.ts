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
    sharedLink: 'Enlace compartido',
    linkUnavailable: 'Este enlace ha caducado o ya no está disponible',
    linkUnavailableText: 'Pide un enlace nuevo a quien te lo envió.',
    passwordTitle: 'Este enlace está protegido',
    password: 'Contraseña',
    enter: 'Entrar',
    wrongPassword: 'Contraseña incorrecta',
    tooManyAttempts: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.',
    noDownloads: 'Quien compartió este enlace no permite descargar los originales.',
    emptyLink: 'Este enlace no tiene archivos.',
    expires: 'Caduca el',
    previous: 'Anterior',
    next: 'Siguiente',
    close: 'Cerrar',
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
    sharedLink: 'Shared link',
    linkUnavailable: 'This link has expired or is no longer available',
    linkUnavailableText: 'Ask whoever sent it for a new one.',
    passwordTitle: 'This link is protected',
    password: 'Password',
    enter: 'Enter',
    wrongPassword: 'Wrong password',
    tooManyAttempts: 'Too many attempts. Wait a moment and try again.',
    noDownloads: 'Whoever shared this link does not allow downloading the originals.',
    emptyLink: 'This link has no files.',
    expires: 'Expires on',
    previous: 'Previous',
    next: 'Next',
    close: 'Close',
  },
} as const;
