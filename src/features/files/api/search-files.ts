import { supabase } from '../../../lib/supabase.ts';
import type { Database } from '../../../types/database.ts';

export type FileRow = Omit<Database['public']['Tables']['files']['Row'], 'search_document'>;

/** The filters of the files screen, exactly as public.search_files understands them. */
export interface FileFilters {
  query?: string;
  type?: 'all' | 'image' | 'not-image';
  tagId?: string;
  collectionId?: string;
  status?: 'all' | 'published' | 'unpublished';
  operations?: 'all' | 'OPERATIONS';
}

export interface FilePage {
  total: number;
  files: FileRow[];
}

export async function searchFiles(
  filters: FileFilters,
  sort: string,
  page: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<FilePage> {
  const { data, error } = await supabase
    .rpc('search_files', { p_filter: { ...filters }, p_sort: sort, p_limit: page.limit, p_offset: page.offset })
    .abortSignal(signal!);
  if (error) throw error;
  return data as unknown as FilePage;
}
