import type { QueryClient } from '@tanstack/react-query';
import { fileListQuery } from './search-files.ts';
import { fileCountQuery } from './count-files.ts';
import type { FileFilters, FileSort } from './file-filters.ts';

/**
 * Starts the first page and the count of a filter the person has just chosen, from the event itself. The
 * screen's queries would otherwise start only once React has rendered the new URL (20–45 ms on a 2-core
 * machine, measured from the Tipo menu); they join these requests instead of sending their own. A filter
 * already in the cache is not fetched again.
 */
export function prefetchFileResults(queryClient: QueryClient, filters: FileFilters, sort: FileSort) {
  void queryClient.prefetchInfiniteQuery(fileListQuery(filters, sort));
  void queryClient.prefetchQuery(fileCountQuery(filters));
}
