import { infiniteQueryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import type { Database } from '../../../types/database.ts';
import { fileKeys } from './keys.ts';
import { reversedSort, sortDateColumn, type FileFilters, type FileSort } from './file-filters.ts';
import { cursorAfter, type PageCursor } from './page-cursor.ts';
import { monthCursor, type MonthKey } from '../lib/timeline.ts';

export type FileRow = Omit<Database['public']['Tables']['files']['Row'], 'search_document'>;

export type { FileFilters } from './file-filters.ts';
export { cursorAfter, type PageCursor } from './page-cursor.ts';

export interface FilePage {
  files: FileRow[];
  /** The page asked for as many files as it got: more may follow (or, read backwards, precede). */
  full?: boolean;
}

/** 100 first, then 50 more each time the user nears the end of what is loaded. */
export const FIRST_PAGE = 100;
export const NEXT_PAGE = 50;

// Every column but the search text, which only the database reads.
const LIST_COLUMNS =
  'id, file_name, object_path, original_file_name, name_es, name_en, description_es, description_en, size, uploaded_on, uploader_id, uploader_email, extension, is_image, processing, processing_error, processed_at, published, panorama, b2b, operations, mime_type, width, height, checksum, preview_path, updated_at, duplicate_of, captured_at, rights_creator, rights_credit, rights_copyright, rights_license, rights_usage_terms, rights_expire_on, rights_release';

/** Where a page of the list starts: after a file (or at the top), read in the sort's order or backwards. */
export interface PageParam {
  after: PageCursor | null;
  /** Read the files before `after` instead (the reversed sort), for a list that starts at a month. */
  backward?: boolean;
}

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

const sameCursor = (a: PageCursor | null, b: PageCursor | null) => a?.key === b?.key && a?.id === b?.id;

async function listPage(filters: FileFilters, sort: FileSort, param: PageParam, first: boolean, signal: AbortSignal) {
  const limit = first ? FIRST_PAGE : NEXT_PAGE;
  if (!param.backward) {
    const page = await searchFiles(filters, sort, { limit, after: param.after }, signal);
    return { ...page, full: page.files.length === limit };
  }
  // The files just before `after` are the first ones after it in the other order, nearest first.
  const page = await searchFiles(filters, reversedSort(sort), { limit, after: param.after }, signal);
  return { files: page.files.reverse(), full: page.files.length === limit };
}

/**
 * The files screen's pages: keyset paging, so files uploaded or deleted meanwhile never shift a page. From
 * the top, or from a month's first file (`from`, a timeline jump): then only the pages from there on are
 * read, and the ones before it as the person scrolls back up.
 */
export const fileListQuery = (filters: FileFilters, sort: FileSort, from: MonthKey | null = null) => {
  const start: PageParam = { after: from && sortDateColumn(sort) ? monthCursor(from, sort) : null };
  return infiniteQueryOptions({
    queryKey: fileKeys.list(filters, sort, from),
    initialPageParam: start,
    // The first page is the larger one, also when it is read again (its stored param is an older object).
    queryFn: ({ pageParam, signal }) =>
      listPage(filters, sort, pageParam, !pageParam.backward && sameCursor(pageParam.after, start.after), signal),
    getNextPageParam: (last: FilePage): PageParam | undefined => {
      const lastFile = last.files.at(-1);
      return lastFile && last.full !== false ? { after: cursorAfter(lastFile, sort) } : undefined;
    },
    getPreviousPageParam: (first: FilePage, _pages: FilePage[], firstParam: PageParam): PageParam | undefined => {
      if (start.after === null) return undefined;
      if (firstParam.backward && first.full === false) return undefined;
      const firstFile = first.files[0];
      if (firstFile) return { after: cursorAfter(firstFile, sort), backward: true };
      // A month page that came back empty (its files left meanwhile): what precedes its start.
      return firstParam.backward ? undefined : { after: firstParam.after, backward: true };
    },
  });
};
