// The list of a ZIP's entries, a bounded page at a time. The archive itself is written by the browser
// (src/lib/zip): a function streaming it would spend CPU on the CRC of every byte (~0.5 GB reaches hosted's
// 2 s per request) and outlast the 150 s wall clock on a big download. Each page is one database read and one
// batch signing call for at most ZIP_PAGE objects, so a request stays a few milliseconds of CPU whatever the
// archive's size. The browser asks for the next page only when its archive reaches it, so every URL is fresh
// when it is used; the lifetime below only has to cover the files of one page, and the browser asks for the
// page again (same cursor) if a URL has expired anyway.
import type { SupabaseClient } from '@supabase/supabase-js';
import { SIGNED_URL_SECONDS } from './media-variants.ts';
import type { ZipEntryPage } from './zip-entries.ts';

export { SHARE_LINK_ZIP_PAGE, ZIP_PAGE, type ZipEntryLink, type ZipEntryPage } from './zip-entries.ts';

/** A file as the entries functions read it: the keyset cursor is its id. */
export interface ZipSource {
  id: string;
  object_path: string;
  original_file_name: string;
  size: number;
  uploaded_on: string;
}

/** Signs a page of already-authorised files in one Storage call. */
export async function signedPage(admin: SupabaseClient, sources: ZipSource[], limit: number): Promise<ZipEntryPage> {
  if (sources.length === 0) return { entries: [], next: null };
  const signed = await admin.storage.from('media').createSignedUrls(
    sources.map((source) => source.object_path),
    SIGNED_URL_SECONDS.zipEntry,
  );
  if (signed.error) throw signed.error;
  const urls = new Map(signed.data.map((item) => [item.path, item.signedUrl]));
  const entries = sources.map((source) => {
    const url = urls.get(source.object_path);
    if (!url) throw new Error(`media ${source.object_path}: not signed`);
    return {
      id: source.id,
      name: source.original_file_name,
      size: Number(source.size),
      lastModified: source.uploaded_on,
      url,
    };
  });
  return { entries, next: sources.length < limit ? null : sources[sources.length - 1]!.id };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The cursor a client sent back: null for the first page, else the id of the previous page's last file. */
export function parseCursor(raw: unknown): string | null | undefined {
  if (raw === null || raw === undefined || raw === '') return null;
  return typeof raw === 'string' && UUID.test(raw) ? raw : undefined;
}

export const isUuid = (value: string) => UUID.test(value);
