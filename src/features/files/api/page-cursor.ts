import type { FileSort } from './file-filters.ts';
import type { Database } from '../../../types/database.ts';

/** The columns a cursor reads: any file row of the grid has them. */
type SortedRow = Pick<
  Database['public']['Tables']['files']['Row'],
  'id' | 'size' | 'name_es' | 'captured_at' | 'uploaded_on'
>;

/** Where the next page starts: right after this file, which sorts by this key (as search_files takes it). */
export interface PageCursor {
  key: string;
  id: string;
}

/**
 * The value of the sort's key in a row, as public.search_files compares it for the next page. A file without a
 * capture date sorts last both ways: the database keys it as +infinity going up and -infinity going down.
 * Kept apart from the request itself so tests can page with it without the app's client.
 */
export function cursorAfter(file: SortedRow, sort: FileSort): PageCursor {
  const key = sort.startsWith('size')
    ? String(file.size)
    : sort.startsWith('nameEs')
      ? file.name_es
      : sort.startsWith('capturedAt')
        ? (file.captured_at ?? (sort === 'capturedAt_desc' ? '-infinity' : 'infinity'))
        : file.uploaded_on;
  return { key, id: file.id };
}
