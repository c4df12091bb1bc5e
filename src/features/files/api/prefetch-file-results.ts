import type { QueryClient } from '@tanstack/react-query';
import { fileListQuery } from './search-files.ts';
import { fileCountQuery } from './count-files.ts';
import type { MonthKey } from '../lib/timeline.ts';
import { filtersFromParams, monthFromParams, sortDateColumn, type FileFilters, type FileSort } from './file-filters.ts';

/**
 * Starts the first page and the count of a filter the person has just chosen, from the event itself. The
 * screen's queries would otherwise start only once React has rendered the new URL (20–45 ms on a 2-core
 * machine, measured from the Tipo menu); they join these requests instead of sending their own. A filter
 * already in the cache is not fetched again.
 */
export function prefetchFileResults(
  queryClient: QueryClient,
  filters: FileFilters,
  sort: FileSort,
  from: MonthKey | null = null,
) {
  void queryClient.prefetchInfiniteQuery(fileListQuery(filters, sort, from));
  void queryClient.prefetchQuery(fileCountQuery(filters));
}

/**
 * The files screen's first page and count for the URL it is opened at (`search`), asked for as soon as the
 * person is known to be staff: the screen itself renders only once the tags and collections are loaded, and
 * starting its page then put that whole request after theirs (about 70 ms of every sign-in).
 */
export function prefetchFilesScreen(queryClient: QueryClient, search: string) {
  const params = new URLSearchParams(search);
  const { filters, sort } = filtersFromParams(params);
  prefetchFileResults(queryClient, filters, sort, sortDateColumn(sort) ? monthFromParams(params) : null);
}
