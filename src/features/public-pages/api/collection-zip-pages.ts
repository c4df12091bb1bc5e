import type { FetchZipPage, ZipEntryPage } from '../../../lib/zip/zip-entries.ts';
import { ZipDownloadError } from '../../../lib/zip/zip-entries.ts';
import { collectionZipUrl } from '../lib/media-url.ts';

/**
 * The pages of a public collection's 'Descargar todo (ZIP)': the collection-zip function lists its published
 * files with signed URLs, anonymously, and refuses a collection that is not (or no longer) public.
 */
export function collectionZipPages(collectionId: string, unavailable: string): FetchZipPage {
  return async (after) => {
    const url = collectionZipUrl(collectionId) + (after ? `?after=${encodeURIComponent(after)}` : '');
    const response = await fetch(url).catch(() => null);
    if (response?.status === 404) throw new ZipDownloadError(unavailable);
    if (!response?.ok) throw new ZipDownloadError('No se pudo preparar el ZIP. Inténtalo de nuevo.');
    return (await response.json()) as ZipEntryPage;
  };
}
