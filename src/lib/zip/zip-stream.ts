import { makeZip } from 'client-zip';
import {
  createUniqueNamer,
  ZipDownloadError,
  type FetchZipPage,
  type ZipEntryLink,
  type ZipProgress,
} from './zip-entries.ts';

/** A signed URL that has expired answers 400 (hosted Storage) or 401/403: the page is asked for again. */
const isExpiredAnswer = (status: number) => status === 400 || status === 401 || status === 403;

/** How many originals after the one being written are already being fetched. */
const OPEN_AHEAD = 3;

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
      // The next few originals are asked for while one is written: small files would otherwise wait a round
      // trip each. An unread answer holds only what the browser buffers per connection.
      const opened = page.entries.map(() => null as Promise<ReadableStream<Uint8Array>> | null);
      const open = (index: number) => {
        const entry = page.entries[index];
        if (!entry || opened[index]) return;
        opened[index] = openOriginal(entry, resign(entry.id));
        opened[index].catch(() => undefined);
      };
      try {
        for (const [index, entry] of page.entries.entries()) {
          for (let ahead = index; ahead <= index + OPEN_AHEAD; ahead += 1) open(ahead);
          const input = await opened[index]!;
          opened[index] = null;
          yield { name: uniqueName(entry.name), input, size: entry.size, lastModified: new Date(entry.lastModified) };
          progress.files += 1;
        }
      } finally {
        // A cancelled or failed archive lets go of the originals it had already asked for.
        for (const pending of opened) void pending?.then((body) => body.cancel()).catch(() => undefined);
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
