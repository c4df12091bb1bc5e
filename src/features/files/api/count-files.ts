import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { fileKeys } from './keys.ts';
import type { FileFilters } from './file-filters.ts';

/** How many files the filters match, as the signed-in person may see them (public.count_files). */
export async function countFiles(filters: FileFilters, signal?: AbortSignal): Promise<number> {
  let request = supabase.rpc('count_files', { p_filter: { ...filters } });
  if (signal) request = request.abortSignal(signal);
  const { data, error } = await request;
  if (error) throw error;
  return data;
}

/** The heading's 'n archivos filtrados', read beside the first page rather than with it. */
export const fileCountQuery = (filters: FileFilters) =>
  queryOptions({
    queryKey: fileKeys.count(filters),
    queryFn: ({ signal }) => countFiles(filters, signal),
  });
