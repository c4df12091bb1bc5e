import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { fileKeys } from './keys.ts';
import type { FileFilters, FileSort } from './file-filters.ts';
import { browserTimeZone, type MonthKey } from '../lib/timeline.ts';

/** One month of the timeline: its key ('YYYY-MM', null for the files without a date) and how many files. */
export interface TimelineMonth {
  month: MonthKey | null;
  files: number;
}

/**
 * Every month of the filtered files in the sort's order, with how many each holds (public.file_months): the
 * whole result's months, not only the loaded pages', so the timeline can jump anywhere.
 */
export async function getFileMonths(filters: FileFilters, sort: FileSort, signal?: AbortSignal) {
  let request = supabase.rpc('file_months', { p_filter: { ...filters }, p_sort: sort, p_time_zone: browserTimeZone() });
  if (signal) request = request.abortSignal(signal);
  const { data, error } = await request;
  if (error) throw error;
  return data.map((row): TimelineMonth => ({ month: row.month ? row.month.slice(0, 7) : null, files: row.files }));
}

/** The timeline's months, read beside the first page (only for date sorts). */
export const fileMonthsQuery = (filters: FileFilters, sort: FileSort) =>
  queryOptions({
    queryKey: fileKeys.months(filters, sort),
    queryFn: ({ signal }) => getFileMonths(filters, sort, signal),
  });
