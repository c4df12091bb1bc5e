/** One file of an archive as the entries functions list it (files-zip, collection-zip). */
export interface ZipEntryLink {
  id: string;
  /** The original name; made unique across the archive by the browser. */
  name: string;
  size: number;
  lastModified: string;
  /** A short-lived signed URL of the original. */
  url: string;
}

export interface ZipEntryPage {
  entries: ZipEntryLink[];
  /** The cursor of the next page, or null after the last one. */
  next: string | null;
}

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
