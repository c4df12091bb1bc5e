import { infiniteQueryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import type { Database } from '../../../types/database.ts';
import { fileKeys } from './keys.ts';
import type { FileFilters, FileSort } from './file-filters.ts';

export type FileRow = Omit<Database['public']['Tables']['files']['Row'], 'search_document'>;

export type { FileFilters } from './file-filters.ts';

export interface FilePage {
  total: number;
  files: FileRow[];
}

/** Spec section 9: 100 first, then 50 more each time the user nears the end of what is loaded. */
export const FIRST_PAGE = 100;
export const NEXT_PAGE = 50;

export async function searchFiles(
  filters: FileFilters,
  sort: FileSort,
  page: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<FilePage> {
  const { data, error } = await supabase
    .rpc('search_files', { p_filter: { ...filters }, p_sort: sort, p_limit: page.limit, p_offset: page.offset })
    .abortSignal(signal!);
  if (error) throw error;
  return data as unknown as FilePage;
}

export const fileListQuery = (filters: FileFilters, sort: FileSort) =>
  infiniteQueryOptions({
    queryKey: fileKeys.list(filters, sort),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      searchFiles(filters, sort, { limit: pageParam === 0 ? FIRST_PAGE : NEXT_PAGE, offset: pageParam }, signal),
    getNextPageParam: (last: FilePage, pages: FilePage[]) => {
      const loaded = pages.reduce((sum, page) => sum + page.files.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
  });
