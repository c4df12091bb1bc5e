// What a ZIP's list of entries is, for the edge functions that list them (files-zip, collection-zip,
// share-link-media) and the browser that writes the archive from them (src/lib/zip). Both import this file,
// so it stays plain TypeScript with no imports and no Deno APIs.

/** How many files one page of entries lists: one database read and one batch signing call each. */
export const ZIP_PAGE = 200;

/**
 * How many files of a shared link one page lists: share-link-media asks the database about each file on its
 * own (the link's rules, and a download counted per original), so its pages are smaller.
 */
export const SHARE_LINK_ZIP_PAGE = 50;

/**
 * One entry of the archive as the browser receives it. `name` is the original name; the browser makes the
 * names unique across the whole archive (pages are independent, only the browser sees them all).
 */
export interface ZipEntryLink {
  id: string;
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

/**
 * Entry names must be unique in a ZIP: 'foto.jpg', 'foto (2).jpg', … compared without case, with path
 * separators replaced so no entry lands in a folder. Stateful because the entries arrive a page at a time.
 */
export function createUniqueNamer(): (raw: string) => string {
  const used = new Set<string>();
  return (raw) => {
    const name = raw.replaceAll('/', '_').replaceAll('\\', '_') || 'archivo';
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${extension}`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
}
