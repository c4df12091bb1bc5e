// The entries' shape, their page sizes and how they are named are the functions' and the browser's alike:
// defined once, beside the functions that list them.
import type { ZipEntryPage } from '../../../supabase/functions/_shared/zip-entries.ts';

export {
  createUniqueNamer,
  SHARE_LINK_ZIP_PAGE,
  type ZipEntryLink,
  type ZipEntryPage,
} from '../../../supabase/functions/_shared/zip-entries.ts';

/** Asks the server for one page of entries: `cursor` is null for the first page, else the previous `next`. */
export type FetchZipPage = (cursor: string | null) => Promise<ZipEntryPage>;

export interface ZipProgress {
  /** Files whose bytes are entirely in the archive. */
  files: number;
  /** Bytes of the archive written so far. */
  bytes: number;
}

/** A failure a user should read as is (Spanish). */
export class ZipDownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipDownloadError';
  }
}
