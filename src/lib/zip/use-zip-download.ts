import { useRef, useState } from 'react';
import { saveZip, type SaveZipOptions } from './save-zip.ts';
import { ZipDownloadError, type ZipProgress } from './zip-entries.ts';

export interface ZipTexts {
  preparing: string;
  writing: (progress: ZipProgress, totalFiles: number | undefined) => string;
  done: string;
  /** Shown when a failure carries no sentence of its own in this language. */
  failed: string;
  /** Whether the Spanish sentences of ZipDownloadError can be shown as they are. */
  spanish: boolean;
}

const megabytes = (bytes: number, locale: string) =>
  `${(bytes / 1_000_000).toLocaleString(locale, { maximumFractionDigits: 0 })} MB`;

export const zipTexts: Record<'es' | 'en', ZipTexts> = {
  es: {
    preparing: 'Preparando el ZIP…',
    writing: (progress, total) =>
      `Descargando el ZIP: ${progress.files.toLocaleString('es-ES')}${total ? ` de ${total.toLocaleString('es-ES')}` : ''} archivos (${megabytes(progress.bytes, 'es-ES')})`,
    done: 'ZIP descargado.',
    failed: 'No se pudo descargar el ZIP. Inténtalo de nuevo.',
    spanish: true,
  },
  en: {
    preparing: 'Preparing the ZIP…',
    writing: (progress, total) =>
      `Downloading the ZIP: ${progress.files.toLocaleString('en-GB')}${total ? ` of ${total.toLocaleString('en-GB')}` : ''} files (${megabytes(progress.bytes, 'en-GB')})`,
    done: 'ZIP downloaded.',
    failed: 'The ZIP could not be downloaded. Please try again.',
    spanish: false,
  },
};

const PROGRESS_EVERY_MS = 250;
/** Numbers each download's toast (crypto.randomUUID needs a secure origin, and the fallbacks do not). */
let downloads = 0;
const loadToast = () => import('sonner').then((module) => module.toast);

/**
 * A browser-built ZIP download with its visible state: a toast that follows the archive as it is written
 * (then says it is done, or why it failed) and `status` for the button that started it, which stays busy
 * meanwhile so the same archive is not started twice.
 */
export function useZipDownload(texts: ZipTexts = zipTexts.es) {
  const [status, setStatus] = useState<string | null>(null);
  const running = useRef(false);

  const start = (options: Omit<SaveZipOptions, 'onProgress'> & { totalFiles?: number }) => {
    if (running.current) return;
    running.current = true;
    downloads += 1;
    const toastId = `zip-download-${downloads}`;
    let shownAt = 0;
    const show = (message: string) => {
      setStatus(message);
      void loadToast().then((toast) => toast.loading(message, { id: toastId, duration: Infinity }));
    };
    show(texts.preparing);
    saveZip({
      ...options,
      onProgress: (progress) => {
        const now = performance.now();
        if (now - shownAt < PROGRESS_EVERY_MS) return;
        shownAt = now;
        show(texts.writing(progress, options.totalFiles));
      },
    })
      .then(
        () => loadToast().then((toast) => toast.success(texts.done, { id: toastId, duration: 4000 })),
        (error: unknown) => {
          if (!(error instanceof ZipDownloadError)) console.error(error);
          const message = error instanceof ZipDownloadError && texts.spanish ? error.message : texts.failed;
          return loadToast().then((toast) => toast.error(message, { id: toastId, duration: 8000 }));
        },
      )
      .finally(() => {
        running.current = false;
        setStatus(null);
      });
  };

  return { status, start };
}
