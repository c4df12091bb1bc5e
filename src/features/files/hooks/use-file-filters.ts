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

  // Each change starts from the URL as it is at that moment, not as it was at the last render: React Router's
  // functional setSearchParams hands over the render-time params, so a filter chosen before the screen had
  // rendered the previous one used to undo it.
  const setFilter = useCallback(
    (key: Param, value: string | null) => {
      const next = new URLSearchParams(window.location.search);
      if (value) next.set(key, value);
      else next.delete(key);
      setParams(next, { replace: true });
    },
    [setParams],
  );
  const clear = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  const active = PARAMS.some((key) => params.has(key));
  return { filters, sort, setFilter, clear, active };
}
