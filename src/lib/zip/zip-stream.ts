import { makeZip } from 'client-zip';
import { createUniqueNamer } from './unique-names.ts';
import { ZipDownloadError, type FetchZipPage, type ZipEntryLink, type ZipProgress } from './zip-entries.ts';

/** A signed URL that has expired answers 400 (hosted Storage) or 401/403: the page is asked for again. */
const isExpiredAnswer = (status: number) => status === 400 || status === 401 || status === 403;

const unreadable = (name: string) => new ZipDownloadError(`No se pudo leer «${name}» para el ZIP.`);

async function openOriginal(entry: ZipEntryLink, resign: () => Promise<ZipEntryLink | undefined>) {
  let response = await fetch(entry.url);
  if (isExpiredAnswer(response.status)) {
    await response.body?.cancel();
    const fresh = await resign();
    if (!fresh) throw unreadable(entry.name);
    response = await fetch(fresh.url);
  }
  if (!response.ok || !response.body) throw unreadable(entry.name);
  return response.body;
}

/**
 * The archive of every entry `fetchPage` lists, as a stream that is written only as fast as it is read:
 * client-zip pulls one entry at a time, each original is fetched from its signed URL only when the archive
 * reaches it and its bytes pass straight through (stored, not recompressed: photos, videos and PDFs are
 * compressed already), and the next page of entries is asked for only when the previous one is used up. So
 * memory stays flat and every URL is fresh when it is used, however large the archive.
 */
export function zipStream(fetchPage: FetchZipPage, onProgress?: (progress: ZipProgress) => void) {
  const progress: ZipProgress = { files: 0, bytes: 0 };
  const uniqueName = createUniqueNamer();

  async function* files() {
    for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
      const pageCursor: string | null = cursor;
      const page = await fetchPage(pageCursor);
      const resign = (id: string) => async () => (await fetchPage(pageCursor)).entries.find((entry) => entry.id === id);
      for (const entry of page.entries) {
        const input = await openOriginal(entry, resign(entry.id));
        yield { name: uniqueName(entry.name), input, size: entry.size, lastModified: new Date(entry.lastModified) };
        progress.files += 1;
      }
      cursor = page.next;
    }
  }

  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      progress.bytes += chunk.byteLength;
      onProgress?.({ ...progress });
      controller.enqueue(chunk);
    },
  });
  return makeZip(files()).pipeThrough(counter);
}
