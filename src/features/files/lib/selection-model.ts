import type { FileFilters } from '../api/file-filters.ts';
import type { FileSelection } from '../api/selection.ts';

/**
 * What is picked in one filtered list: files one by one, or the whole list by its filters. Plain values and
 * functions, apart from React and the grid, so every way of selecting can be checked on its own.
 */
export interface Picked {
  ids: string[];
  /** 'Seleccionar todos': the filters are the selection, so the database expands it, never the browser. */
  all: boolean;
}

export const NOTHING_PICKED: Picked = { ids: [], all: false };
export const EVERYTHING_PICKED: Picked = { ids: [], all: true };

/**
 * A click (or Space) on the card at `index` of the loaded list. Alone it flips that card; with `range` (shift)
 * and an `anchor` (the card clicked before) it adds every card between the two, whichever comes first — a range
 * only adds, as in a photo app. With everything picked, the loaded files become the ids, so taking one out keeps
 * the rest. Undefined for an index that is not loaded: nothing changes.
 */
export function toggled(
  picked: Picked,
  loadedIds: readonly string[],
  index: number,
  range: boolean,
  anchor: number | null,
): Picked | undefined {
  const id = loadedIds[index];
  if (!id) return undefined;
  const ids = new Set(picked.all ? loadedIds : picked.ids);
  if (range && anchor !== null) {
    const [from, to] = [Math.min(anchor, index), Math.max(anchor, index)];
    for (const rangeId of loadedIds.slice(from, to + 1)) ids.add(rangeId);
  } else if (ids.has(id)) {
    ids.delete(id);
  } else {
    ids.add(id);
  }
  return { ids: [...ids], all: false };
}

/** The selection the actions send: the filters for everything, the ids otherwise, null for nothing. */
export function selectionOf(picked: Picked, filters: FileFilters): FileSelection | null {
  if (picked.all) return { kind: 'filtered', filters };
  return picked.ids.length > 0 ? { kind: 'ids', ids: picked.ids } : null;
}

/** Every file of a list of `total` picked, by 'Seleccionar todos' or one by one. */
export function picksEverything(picked: Picked, total: number): boolean {
  return picked.all || (total > 0 && picked.ids.length >= total);
}

/** Whether a file is picked, answered from a set rather than a search of the ids. */
export function pickedTest(picked: Picked): (id: string) => boolean {
  const ids = new Set(picked.ids);
  return (id) => picked.all || ids.has(id);
}
