import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { FILTER_PARAMS, filtersFromParams } from '../api/file-filters.ts';

export { DEFAULT_SORT, SORTS } from '../api/file-filters.ts';

type Param = (typeof FILTER_PARAMS)[keyof typeof FILTER_PARAMS] | 'sort';
const PARAMS: readonly Param[] = [...Object.values(FILTER_PARAMS), 'sort'];

/** The files screen's filters live in the URL, so a filtered view can be shared and survives a reload. */
export function useFileFilters() {
  const [params, setParams] = useSearchParams();
  const { filters, sort } = useMemo(() => filtersFromParams(params), [params]);

  // Each change is applied to the URL as it is now (a function of the current params), so two filters
  // chosen in quick succession both stick.
  const setFilter = useCallback(
    (key: Param, value: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(key, value);
          else next.delete(key);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const clear = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  const active = PARAMS.some((key) => params.has(key));
  return { filters, sort, setFilter, clear, active };
}
