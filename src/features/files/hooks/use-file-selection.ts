import { useCallback, useMemo, useRef, useState } from 'react';
import type { FileFilters } from '../api/search-files.ts';
import type { FileSelection } from '../api/selection.ts';

interface Picked {
  listKey: string;
  ids: string[];
  all: boolean;
}

/**
 * The selection belongs to one filtered list: when filters or sort change it is gone.
 * 'Seleccionar todos' selects the filter itself, so the database expands it, never the browser.
 */
export function useFileSelection(filters: FileFilters, sort: string, loadedIds: readonly string[]) {
  const listKey = JSON.stringify([filters, sort]);
  const [picked, setPicked] = useState<Picked>({ listKey, ids: [], all: false });
  // The same object from render to render while neither the selection nor the list changes, so toggle and
  // isSelected keep their identity and the grid's memoised cards do not re-render when, say, the count arrives.
  const current = useMemo(
    () => (picked.listKey === listKey ? picked : { listKey, ids: [], all: false }),
    [picked, listKey],
  );
  const lastToggled = useRef<number | null>(null);

  const selection: FileSelection | null = current.all
    ? { kind: 'filtered', filters }
    : current.ids.length > 0
      ? { kind: 'ids', ids: current.ids }
      : null;

  /** Toggles one file; with shift, adds the range from the last toggled file. */
  const toggle = useCallback(
    (index: number, range: boolean) => {
      const id = loadedIds[index];
      if (!id) return;
      const ids = new Set(current.all ? loadedIds : current.ids);
      if (range && lastToggled.current !== null) {
        const [from, to] = [Math.min(lastToggled.current, index), Math.max(lastToggled.current, index)];
        for (const rangeId of loadedIds.slice(from, to + 1)) ids.add(rangeId);
      } else if (ids.has(id)) {
        ids.delete(id);
      } else {
        ids.add(id);
      }
      lastToggled.current = index;
      setPicked({ listKey, ids: [...ids], all: false });
    },
    [current, listKey, loadedIds],
  );

  const selectAll = useCallback(() => setPicked({ listKey, ids: [], all: true }), [listKey]);
  const clear = useCallback(() => setPicked({ listKey, ids: [], all: false }), [listKey]);
  const isSelected = useMemo(() => {
    const selectedIds = new Set(current.ids);
    return (id: string) => current.all || selectedIds.has(id);
  }, [current]);

  return { selection, toggle, selectAll, clear, isSelected, allSelected: current.all };
}
