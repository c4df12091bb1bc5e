import { infiniteQueryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import type { Database } from '../../../types/database.ts';
import { fileKeys } from './keys.ts';
import type { FileFilters, FileSort } from './file-filters.ts';
import { cursorAfter, type PageCursor } from './page-cursor.ts';

export type FileRow = Omit<Database['public']['Tables']['files']['Row'], 'search_document'>;

export type { FileFilters } from './file-filters.ts';
export { cursorAfter, type PageCursor } from './page-cursor.ts';

export interface FilePage {
  files: FileRow[];
}

/** 100 first, then 50 more each time the user nears the end of what is loaded. */
export const FIRST_PAGE = 100;
export const NEXT_PAGE = 50;

// Every column but the search text, which only the database reads.
const LIST_COLUMNS =
  'id, file_name, object_path, original_file_name, name_es, name_en, description_es, description_en, size, uploaded_on, uploader_id, uploader_email, extension, is_image, processing, processing_error, processed_at, published, panorama, b2b, operations, mime_type, width, height, checksum, preview_path, updated_at, duplicate_of, captured_at, rights_creator, rights_credit, rights_copyright, rights_license, rights_usage_terms, rights_expire_on, rights_release';

export async function searchFiles(
  filters: FileFilters,
  sort: FileSort,
  page: { limit: number; after: PageCursor | null },
  signal?: AbortSignal,
): Promise<FilePage> {
  let request = supabase
    .rpc('search_files', {
      p_filter: { ...filters },
      p_sort: sort,
      p_limit: page.limit,
      ...(page.after ? { p_after_key: page.after.key, p_after_id: page.after.id } : {}),
    })
    .select(LIST_COLUMNS);
  if (signal) request = request.abortSignal(signal);
  const { data, error } = await request;
  if (error) throw error;
  return { files: data satisfies FileRow[] };
}

/** The files screen's pages: keyset paging, so files uploaded or deleted meanwhile never shift a page. */
export const fileListQuery = (filters: FileFilters, sort: FileSort) =>
  infiniteQueryOptions({
    queryKey: fileKeys.list(filters, sort),
    initialPageParam: null as PageCursor | null,
    queryFn: ({ pageParam, signal }) =>
      searchFiles(filters, sort, { limit: pageParam === null ? FIRST_PAGE : NEXT_PAGE, after: pageParam }, signal),
    getNextPageParam: (last: FilePage, pages: FilePage[]) => {
      const limit = pages.length === 1 ? FIRST_PAGE : NEXT_PAGE;
      const lastFile = last.files.at(-1);
      return lastFile && last.files.length === limit ? cursorAfter(lastFile, sort) : undefined;
    },
  });
