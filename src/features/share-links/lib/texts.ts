import { useSearchParams } from 'react-router-dom';

export type Language = 'es' | 'en';

/** The page language lives in the URL (?lang=en), as on the other shared pages. */
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
    kicker: 'Enlace compartido',
    unavailable: 'Este enlace ha caducado o ya no está disponible',
    unavailableText: 'Pide un enlace nuevo a quien te lo envió.',
    passwordTitle: 'Este enlace está protegido',
    password: 'Contraseña',
    enter: 'Entrar',
    wrongPassword: 'Contraseña incorrecta',
    tooManyAttempts: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.',
    download: 'Descargar',
    downloadAll: 'Descargar todo (ZIP)',
    zipping: (done: number, total: number) => `Preparando el ZIP… ${done} de ${total}`,
    zipFailed: 'No se pudo preparar el ZIP. Inténtalo de nuevo.',
    zipTooBig: 'Demasiados archivos para un ZIP: descárgalos uno a uno.',
    noDownloads: 'Quien compartió este enlace no permite descargar los originales.',
    files: (n: number) => `${n.toLocaleString('es-ES')} ${n === 1 ? 'archivo' : 'archivos'}`,
    empty: 'Este enlace no tiene archivos.',
    expires: 'Caduca el',
    loading: 'Cargando…',
    loadError: 'No se pudo cargar la página. Comprueba tu conexión e inténtalo de nuevo.',
    retry: 'Reintentar',
    languageLabel: 'Idioma',
    openLarge: 'Ver a tamaño grande',
    previous: 'Anterior',
    next: 'Siguiente',
    close: 'Cerrar',
  },
  en: {
    kicker: 'Shared link',
    unavailable: 'This link has expired or is no longer available',
    unavailableText: 'Ask whoever sent it for a new one.',
    passwordTitle: 'This link is protected',
    password: 'Password',
    enter: 'Enter',
    wrongPassword: 'Wrong password',
    tooManyAttempts: 'Too many attempts. Wait a moment and try again.',
    download: 'Download',
    downloadAll: 'Download all (ZIP)',
    zipping: (done: number, total: number) => `Preparing the ZIP… ${done} of ${total}`,
    zipFailed: 'The ZIP could not be prepared. Try again.',
    zipTooBig: 'Too many files for one ZIP: download them one by one.',
    noDownloads: 'Whoever shared this link does not allow downloading the originals.',
    files: (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'file' : 'files'}`,
    empty: 'This link has no files.',
    expires: 'Expires on',
    loading: 'Loading…',
    loadError: 'The page could not be loaded. Check your connection and try again.',
    retry: 'Try again',
    languageLabel: 'Language',
    openLarge: 'View large',
    previous: 'Previous',
    next: 'Next',
    close: 'Close',
  },
} as const;
