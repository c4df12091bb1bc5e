import { zipStream } from './zip-stream.ts';
import { ZipDownloadError, type FetchZipPage, type ZipEntryPage, type ZipProgress } from './zip-entries.ts';
import { serviceWorkerDownload, zipServiceWorker } from './service-worker-sink.ts';

/**
 * Without a service worker (an insecure origin, some private windows) and without a save dialog, the archive
 * can only become a download as a Blob, which the browser may keep in memory: allowed up to this size only.
 */
export const BLOB_FALLBACK_LIMIT = 512 * 1024 * 1024;

export interface SaveZipOptions {
  /** The name of the saved archive, e.g. 'Hotel Sol.zip'. */
  fileName: string;
  fetchPage: FetchZipPage;
  /** The archive's originals add up to this many bytes, when known (the fallback refuses what is too big). */
  expectedBytes?: number;
  onProgress?: (progress: ZipProgress) => void;
}

type SaveFilePicker = (options: { suggestedName: string }) => Promise<{
  createWritable: () => Promise<WritableStream<Uint8Array>>;
}>;

/**
 * Builds a ZIP in the browser and saves it to disk as it is written, never whole in memory: the stream is
 * handed to a service worker that answers a download URL with it (every modern browser). Where no service
 * worker can run, Chromium's save dialog (File System Access) writes it straight to a file; elsewhere a Blob
 * up to BLOB_FALLBACK_LIMIT. Resolves once the whole archive has been written; rejects with a
 * ZipDownloadError (Spanish) if anything fails.
 */
export async function saveZip(options: SaveZipOptions): Promise<void> {
  const picker = (window as unknown as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  const worker = await zipServiceWorker();
  // The first page is asked for before any bytes are written, so a refusal is a message, not a broken file.
  const archive = async () => zipStream(await finish(withFirstPage(options.fetchPage)), options.onProgress);
  if (worker) {
    const stream = await archive();
    const download = await serviceWorkerDownload(worker, options.fileName);
    try {
      await finish(stream.pipeTo(download.writable));
    } finally {
      download.done();
    }
    return;
  }
  if (picker) {
    // Asked first, while the click still counts as the person's gesture (the dialog needs one).
    const handle = await picker.call(window, { suggestedName: options.fileName }).catch(() => {
      throw new ZipDownloadError('Se canceló la descarga del ZIP.');
    });
    const file = await handle.createWritable();
    // A failure aborts the writable, and the chosen file is left as it was.
    const stream = await archive().catch(async (error: unknown) => {
      await file.abort().catch(() => undefined);
      throw error;
    });
    await finish(stream.pipeTo(file));
    return;
  }
  if ((options.expectedBytes ?? 0) > BLOB_FALLBACK_LIMIT) {
    throw new ZipDownloadError(
      'Este navegador no puede guardar un ZIP tan grande. Descárgalo con Chrome, Edge, Firefox o Safari recientes.',
    );
  }
  const blob = await finish(new Response(await archive()).blob());
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = options.fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

async function withFirstPage(fetchPage: FetchZipPage): Promise<FetchZipPage> {
  let first: ZipEntryPage | null = await fetchPage(null);
  if (first.entries.length === 0) throw new ZipDownloadError('No hay archivos que descargar.');
  return (cursor) => {
    const page = cursor === null ? first : null;
    first = null;
    return page ? Promise.resolve(page) : fetchPage(cursor);
  };
}

async function finish<T>(writing: Promise<T>): Promise<T> {
  try {
    return await writing;
  } catch (error) {
    if (error instanceof ZipDownloadError) throw error;
    console.error(error);
    throw new ZipDownloadError('No se pudo completar el ZIP. Comprueba tu conexión e inténtalo de nuevo.');
  }
}
