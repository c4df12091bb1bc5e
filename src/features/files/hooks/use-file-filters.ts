import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { FILTER_PARAMS, FROM_PARAM, filtersFromParams, monthFromParams } from '../api/file-filters.ts';
import { prefetchFileResults } from '../api/prefetch-file-results.ts';

export { DEFAULT_SORT, SORTS } from '../api/file-filters.ts';

export type FilterParam = (typeof FILTER_PARAMS)[keyof typeof FILTER_PARAMS] | 'sort';
const PARAMS: readonly FilterParam[] = [...Object.values(FILTER_PARAMS), 'sort'];

/** The files screen's filters live in the URL, so a filtered view can be shared and survives a reload. */
export function useFileFilters() {
  const [params, setParams] = useSearchParams();
  const { filters, sort } = useMemo(() => filtersFromParams(params), [params]);
  const from = useMemo(() => monthFromParams(params), [params]);
  const queryClient = useQueryClient();
  // Every change goes through here: the new results are asked for before the screen renders the new URL.
  const apply = useCallback(
    (next: URLSearchParams) => {
      const chosen = filtersFromParams(next);
      prefetchFileResults(queryClient, chosen.filters, chosen.sort);
      setParams(next, { replace: true });
    },
    [queryClient, setParams],
  );

  // Each change starts from the URL as it is at that moment, not as it was at the last render: React Router's
  // functional setSearchParams hands over the render-time params, so a filter chosen before the screen had
  // rendered the previous one used to undo it.
  const setFilter = useCallback(
    (key: FilterParam, value: string | null) => {
      const next = new URLSearchParams(window.location.search);
      if (value) next.set(key, value);
      else next.delete(key);
      next.delete(FROM_PARAM);
      apply(next);
    },
    [apply],
  );
  const setFrom = useCallback(
    (month: string | null) => {
      const next = new URLSearchParams(window.location.search);
      if (month) next.set(FROM_PARAM, month);
      else next.delete(FROM_PARAM);
      setParams(next, { replace: true });
    },
    [setParams],
  );
  // 'Quitar filtros' takes the filters away and keeps the order the person chose.
  const clear = useCallback(() => {
    const sortParam = new URLSearchParams(window.location.search).get('sort');
    apply(new URLSearchParams(sortParam ? { sort: sortParam } : {}));
  }, [apply]);
  /** Anything but the sort is set: what 'Quitar filtros' would take away. */
  const active = PARAMS.some((key) => key !== 'sort' && params.has(key));
  return { filters, sort, setFilter, clear, active, from, setFrom };
}

export type FileFiltersState = ReturnType<typeof useFileFilters>;
