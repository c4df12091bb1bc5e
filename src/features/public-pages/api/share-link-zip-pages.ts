import {
  SHARE_LINK_ZIP_PAGE,
  ZipDownloadError,
  type FetchZipPage,
  type ZipEntryLink,
} from '../../../lib/zip/zip-entries.ts';
import { shareLinkZipUrl } from '../lib/media-url.ts';

/**
 * The pages of a shared link's 'Descargar todo (ZIP)': the page already holds the link's file list, so each
 * page names the next files of it and share-link-media answers with their signed originals (checking the
 * link, the grant and each file, and counting each as a download). The cursor is the position in the list.
 */
export function shareLinkZipPages(
  token: string,
  grant: string | null,
  fileIds: readonly string[],
  unavailable: string,
): FetchZipPage {
  return async (cursor) => {
    const start = cursor === null ? 0 : Number(cursor);
    const page = fileIds.slice(start, start + SHARE_LINK_ZIP_PAGE);
    const response = await fetch(shareLinkZipUrl(token), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant, fileIds: page }),
    }).catch(() => null);
    if (response?.status === 404) throw new ZipDownloadError(unavailable);
    if (!response?.ok) throw new ZipDownloadError('No se pudo preparar el ZIP. Inténtalo de nuevo.');
    const { entries } = (await response.json()) as { entries: ZipEntryLink[] };
    const end = start + page.length;
    return { entries, next: end < fileIds.length ? String(end) : null };
  };
}
