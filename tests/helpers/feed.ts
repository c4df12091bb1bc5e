/**
 * Reads the public feed as a consumer would, from the public bucket with no key: the index, then every page
 * it lists (and the catalogue). Page entries are returned flat, in page order.
 */

export interface FeedIndex {
  version: number;
  generatedAt: string;
  files: number;
  catalogue: { url: string; etag: string | null };
  pages: Array<{ id: string; url: string; etag: string; files: number; updatedAt: string }>;
}

export interface FeedEntry {
  id: string;
  size: number;
  nameEs: string;
  tags: string[];
  b2bTags: string[];
  collections: string[];
  [key: string]: unknown;
}

export interface FeedCatalogue {
  version: number;
  categories: Array<{ id: string; nameEs: string; nameEn: string; b2c: boolean; b2b: boolean }>;
  tags: Array<{ id: string; nameEs: string; nameEn: string; categoryId: string }>;
  collections: Array<{ id: string; name: string }>;
}

const base = (apiUrl: string) => `${apiUrl}/storage/v1/object/public/public-feed/`;

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(`${url}?t=${Date.now()}`);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return (await response.json()) as T;
}

export async function readFeedIndex(apiUrl: string): Promise<FeedIndex> {
  return getJson<FeedIndex>(`${base(apiUrl)}index.json`);
}

export async function readFeedCatalogue(apiUrl: string): Promise<FeedCatalogue> {
  return getJson<FeedCatalogue>(`${base(apiUrl)}catalogue.json`);
}

/** Every file the feed lists, with the index it was read from. */
export async function readFeed(apiUrl: string): Promise<{ index: FeedIndex; files: FeedEntry[] }> {
  const index = await readFeedIndex(apiUrl);
  const pages = await Promise.all(
    index.pages.map((page) => getJson<{ page: string; files: FeedEntry[] }>(`${base(apiUrl)}${page.url}`)),
  );
  return { index, files: pages.flatMap((page) => page.files) };
}
