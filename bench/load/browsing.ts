import type { Metrics } from './metrics.ts';
import type { Person } from './staff.ts';

/**
 * Reading the grid as the app does: a search's first page of 100, then the next 50 after the last file
 * loaded (keyset paging), with the columns the grid reads. The people under load and the one-user baseline
 * both read through here, so each p95 is compared with the same request made alone.
 */

/** The columns the grid reads (every column but the search text). */
const LIST_COLUMNS =
  'id, file_name, object_path, original_file_name, name_es, name_en, description_es, description_en, size, uploaded_on, uploader_id, uploader_email, extension, is_image, processing, processing_error, processed_at, published, panorama, b2b, operations, mime_type, width, height, checksum, preview_path, updated_at, duplicate_of';

type ListRow = { id: string; uploaded_on: string };

/** One person's place in the grid: the filters of the last search and where its next page starts. */
export interface Browsing {
  filter: Record<string, string>;
  loaded: ListRow[];
  next: ListRow | null;
}

export async function search(person: Person, metrics: Metrics, filter: Record<string, string>): Promise<Browsing> {
  const rows = await metrics.read('search (first page of 100)', () =>
    person.client
      .rpc('search_files', { p_filter: filter, p_sort: 'uploadedOn_desc', p_limit: 100 })
      .select(LIST_COLUMNS),
  );
  const loaded = (rows ?? []) as ListRow[];
  return { filter, loaded, next: loaded.length === 100 ? loaded.at(-1)! : null };
}

/** The next 50 after the last loaded file (keyset paging, as the grid scrolls). */
export async function scroll(person: Person, metrics: Metrics, browsing: Browsing): Promise<Browsing> {
  if (!browsing.next) return search(person, metrics, browsing.filter);
  const after = browsing.next;
  const rows = await metrics.read('scroll (next page of 50)', () =>
    person.client
      .rpc('search_files', {
        p_filter: browsing.filter,
        p_sort: 'uploadedOn_desc',
        p_limit: 50,
        p_after_key: after.uploaded_on,
        p_after_id: after.id,
      })
      .select(LIST_COLUMNS),
  );
  const page = (rows ?? []) as ListRow[];
  return {
    filter: browsing.filter,
    loaded: [...browsing.loaded, ...page],
    next: page.length === 50 ? page.at(-1)! : null,
  };
}
