import type { KeyboardEvent, RefObject } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { GridRow } from '../lib/justified-rows.ts';
import { cardAfterArrow } from '../lib/grid-navigation.ts';

interface GridKeys {
  rows: GridRow[];
  /** The row of each loaded file, by its index. */
  rowOf: Map<number, number>;
  fileCount: number;
  virtualizer: Virtualizer<Window, Element>;
  containerRef: RefObject<HTMLDivElement | null>;
  onToggle: (index: number, range: boolean) => void;
}

/**
 * The grid's keys on a focused card: arrows move the focus to the next card (scrolling its row into view first,
 * as it may not be rendered yet), Space toggles the card and Shift+Space extends the range to it.
 */
export function useGridKeys({ rows, rowOf, fileCount, virtualizer, containerRef, onToggle }: GridKeys) {
  const focusCard = (index: number) => {
    const rowIndex = rowOf.get(index);
    if (rowIndex === undefined) return;
    virtualizer.scrollToIndex(rowIndex, { align: 'auto' });
    requestAnimationFrame(() =>
      containerRef.current?.querySelector<HTMLElement>(`[data-index="${index}"]`)?.focus({ preventScroll: true }),
    );
  };

  return (event: KeyboardEvent<HTMLDivElement>) => {
    const index = Number((event.target as HTMLElement).dataset.index);
    if (Number.isNaN(index)) return;
    const rowIndex = rowOf.get(index);
    if (rowIndex === undefined) return;
    if (event.key === ' ') {
      event.preventDefault();
      onToggle(index, event.shiftKey);
      return;
    }
    const target = cardAfterArrow(rows, rowIndex, index, fileCount, event.key);
    if (target === null) return;
    event.preventDefault();
    focusCard(target);
  };
}
