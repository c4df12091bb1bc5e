import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { FileFilters } from '../api/search-files.ts';

export const SORTS = [
  { value: 'uploadedOn_desc', label: 'Más recientes primero' },
  { value: 'uploadedOn_asc', label: 'Más antiguos primero' },
  { value: 'size_desc', label: 'Más grandes primero' },
  { value: 'size_asc', label: 'Más pequeños primero' },
  { value: 'nameEs_asc', label: 'Nombre (A-Z)' },
  { value: 'nameEs_desc', label: 'Nombre (Z-A)' },
] as const;
export const DEFAULT_SORT = 'uploadedOn_desc';

const KEYS = ['q', 'type', 'tag', 'collection', 'status', 'operations', 'sort'] as const;

/** The files screen's filters live in the URL, so a filtered view can be shared and survives a reload. */
export function useFileFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo<FileFilters>(() => {
    const value: FileFilters = {};
    const q = params.get('q');
    if (q) value.query = q;
    const type = params.get('type');
    if (type === 'image' || type === 'not-image') value.type = type;
    const tag = params.get('tag');
    if (tag) value.tagId = tag;
    const collection = params.get('collection');
    if (collection) value.collectionId = collection;
    const status = params.get('status');
    if (status === 'published' || status === 'unpublished') value.status = status;
    if (params.get('operations') === 'OPERATIONS') value.operations = 'OPERATIONS';
    return value;
  }, [params]);
  const sort = SORTS.some((s) => s.value === params.get('sort')) ? params.get('sort')! : DEFAULT_SORT;

  const setFilter = useCallback(
    (key: (typeof KEYS)[number], value: string | null) =>
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
  const active = KEYS.some((key) => params.has(key));
  return { filters, sort, setFilter, clear, active };
}
