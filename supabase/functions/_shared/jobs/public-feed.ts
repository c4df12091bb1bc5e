// The public feed in the public `public-feed` bucket, brought up to date one bounded step at a time: the pages
// that changes marked (database triggers, public_feed_pages.sql) are read as finished JSON from Postgres and
// written as they are, then the catalogue if names changed, then the index that lists every page with its
// ETag. Storage swaps each object in one step, so a reader never sees half of one. Format: docs/public-feed.md.
import type { SupabaseClient } from '@supabase/supabase-js';
import { THUMBNAIL_SIZES, sizeLabel } from '../media-variants.ts';

/**
 * A step's size. By files: one query builds the step's pages, and ~2,000 files keep it to a fraction of a
 * second (64 pages at 1M files, ~9,400 of them, ran past the API's statement timeout on a busy machine). By
 * pages too: a small library's pages are written 64 at a time, not hundreds (each is one Storage write).
 */
const FEED_FILES_PER_STEP = 2000;
const FEED_PAGES_PER_STEP = 64;
/** During a rebuild the index is written at most this often (and once more when the last page is). */
const INDEX_EVERY_MS = 20_000;
const PARALLEL_WRITES = 4;
const CACHE_SECONDS = '60';

interface DuePage {
  page: number;
  changed_at: string;
  file_count: number;
  body: string;
  etag: string;
}

export interface FeedStep {
  pagesWritten: number;
  catalogueWritten: boolean;
  indexWritten: boolean;
  /** Pages are still due: the job goes on in another step. */
  more: boolean;
}

const pageName = (page: number) => `pages/${page.toString(16).padStart(3, '0')}.json`;

// The text itself is the body: storage-js sends a string as it is, but wraps a Blob in a multipart form, and
// those copies live outside the JS heap, where V8 does not see them to collect: at 1M files a worker writing
// the feed grew to 158 MB resident, though each step holds a few MB.
function upload(admin: SupabaseClient, path: string, body: string) {
  return admin.storage.from('public-feed').upload(path, body, {
    upsert: true,
    cacheControl: CACHE_SECONDS,
    contentType: 'application/json',
  });
}

async function writePages(admin: SupabaseClient, pages: DuePage[]): Promise<void> {
  for (let start = 0; start < pages.length; start += PARALLEL_WRITES) {
    await Promise.all(
      pages.slice(start, start + PARALLEL_WRITES).map(async (page) => {
        const written =
          page.file_count > 0
            ? await upload(admin, pageName(page.page), page.body)
            : await admin.storage.from('public-feed').remove([pageName(page.page)]);
        if (written.error) throw new Error(`feed page ${pageName(page.page)}: ${written.error.message}`);
      }),
    );
  }
}

/** One step of the feed's job. */
export async function updateFeed(admin: SupabaseClient): Promise<FeedStep> {
  const functionsUrl = `${Deno.env.get('SUPABASE_URL')}/functions/v1`;
  const siteUrl = (Deno.env.get('PUBLIC_SITE_URL') ?? Deno.env.get('SITE_URL') ?? '').replace(/\/$/, '');

  const due = await admin.rpc('feed_dirty_pages', {
    p_limit: FEED_PAGES_PER_STEP,
    p_max_files: FEED_FILES_PER_STEP,
    p_functions_url: functionsUrl,
    p_site_url: siteUrl,
    p_thumbnails: THUMBNAIL_SIZES.map(sizeLabel),
  });
  if (due.error) throw due.error;
  const pages = due.data as DuePage[];
  if (pages.length) {
    await writePages(admin, pages);
    const recorded = await admin.rpc('feed_pages_written', {
      p_pages: pages.map((page) => page.page),
      p_changed_at: pages.map((page) => page.changed_at),
      p_etags: pages.map((page) => page.etag),
      p_file_counts: pages.map((page) => page.file_count),
    });
    if (recorded.error) throw recorded.error;
  }

  const pending = await admin.rpc('feed_pending').single<{
    dirty_pages: number;
    catalogue_dirty: boolean;
    index_dirty: boolean;
    index_written_at: string | null;
  }>();
  if (pending.error) throw pending.error;

  let catalogueWritten = false;
  if (pending.data.catalogue_dirty) {
    const catalogue = await admin.rpc('feed_catalogue').single<{ body: string; etag: string }>();
    if (catalogue.error) throw catalogue.error;
    const written = await upload(admin, 'catalogue.json', catalogue.data.body);
    if (written.error) throw new Error(`feed catalogue: ${written.error.message}`);
    const recorded = await admin.rpc('feed_catalogue_written', { p_etag: catalogue.data.etag });
    if (recorded.error) throw recorded.error;
    catalogueWritten = true;
  }

  // The index goes last, so every page and catalogue it names is already in place. While a rebuild has pages
  // left it is written only now and then: the one it replaces still names pages that exist, with their old
  // ETags, and a consumer syncing meanwhile fetches those pages again later.
  const more = pending.data.dirty_pages > 0;
  const indexAge = Date.now() - Date.parse(pending.data.index_written_at ?? '1970-01-01T00:00:00Z');
  let indexWritten = false;
  if ((pending.data.index_dirty || catalogueWritten) && (!more || indexAge >= INDEX_EVERY_MS)) {
    const index = await admin.rpc('feed_index').single<{ body: string }>();
    if (index.error) throw index.error;
    const written = await upload(admin, 'index.json', index.data.body);
    if (written.error) throw new Error(`feed index: ${written.error.message}`);
    const recorded = await admin.rpc('feed_index_written');
    if (recorded.error) throw recorded.error;
    indexWritten = true;
  }

  return {
    pagesWritten: pages.length,
    catalogueWritten,
    indexWritten,
    more,
  };
}
