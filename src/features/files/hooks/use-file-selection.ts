import { useCallback, useMemo, useRef, useState } from 'react';
import type { FileFilters } from '../api/search-files.ts';
import {
  EVERYTHING_PICKED,
  NOTHING_PICKED,
  pickedTest,
  picksEverything,
  selectionOf,
  toggled,
  type Picked,
} from '../lib/selection-model.ts';

interface ListPicked extends Picked {
  listKey: string;
}

/**
 * The files screen's one owner of what is selected; the grid, its cards and the bars only read it and call it.
 * The selection belongs to one filtered list: when filters or sort change it is gone.
 */
export function useFileSelection(filters: FileFilters, sort: string, loadedIds: readonly string[]) {
  const listKey = JSON.stringify([filters, sort]);
  const [picked, setPicked] = useState<ListPicked>({ listKey, ...NOTHING_PICKED });
  // The same object from render to render while neither the selection nor the list changes, so toggle and
  // isSelected keep their identity and the grid's memoised cards do not re-render when, say, the count arrives.
  const current = useMemo(
    () => (picked.listKey === listKey ? picked : { listKey, ...NOTHING_PICKED }),
    [picked, listKey],
  );
  // Where a shift-click's range starts. Not state: moving it alone changes nothing on screen.
  const anchor = useRef<number | null>(null);

  const toggle = useCallback(
    (index: number, range: boolean) => {
      const next = toggled(current, loadedIds, index, range, anchor.current);
      if (!next) return;
      anchor.current = index;
      setPicked({ listKey, ...next });
    },
    [current, listKey, loadedIds],
  );
  const selectAll = useCallback(() => setPicked({ listKey, ...EVERYTHING_PICKED }), [listKey]);
  const clear = useCallback(() => setPicked({ listKey, ...NOTHING_PICKED }), [listKey]);
  const isSelected = useMemo(() => pickedTest(current), [current]);

  return {
    selection: selectionOf(current, filters),
    toggle,
    selectAll,
    clear,
    isSelected,
    /** Every one of `total` files picked: the select-all button then offers the way back. */
    everythingSelected: (total: number) => picksEverything(current, total),
  };
}
