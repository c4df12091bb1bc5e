import { useEffect, useLayoutEffect, useRef } from 'react';
import type { GridRow } from '../lib/justified-rows.ts';

interface Layout {
  files: ReadonlyArray<{ id: string }>;
  rows: GridRow[];
  /** Where each row starts in the grid. */
  rowStarts: number[];
  gridTop: () => number;
}

/** The first row with cards whose bottom is below `top` (in the grid's coordinates). */
function firstRowInView({ rows, rowStarts }: Layout, top: number): number | undefined {
  let low = 0;
  let high = rows.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (rowStarts[middle]! + rows[middle]!.height > top) {
      found = middle;
      high = middle - 1;
    } else {
      low = middle + 1;
    }
  }
  if (found === -1) return undefined;
  while (found < rows.length && rows[found]!.boxes.length === 0) found += 1;
  return found < rows.length ? found : undefined;
}

/**
 * Whether `next` is `previous` with files loaded before it: the previous list, whole and in order, starts
 * further down. A filter or sort that comes back from the cache is a new list, even when it holds the files
 * that were shown (the newest photo is also in 'Todos'): it starts at its top.
 */
function loadedBefore(previous: Layout['files'], next: Layout['files']): boolean {
  if (previous.length === 0) return false;
  // 0: the same first file, nothing loaded before it; -1: not there, a new list.
  const start = next.findIndex((file) => file.id === previous[0]!.id);
  if (start <= 0 || next.length - start < previous.length) return false;
  return previous.every((file, index) => next[start + index]!.id === file.id);
}

/**
 * Keeps what the person is looking at in place when files are added above it: a list that starts at a month
 * loads the months before it as they scroll up, and each such page would otherwise push the rows in view
 * down by its height. The first card in view and its distance from the window's top are remembered on every
 * scroll; when files arrive before it, the window is scrolled so that card is where it was, before the
 * browser paints.
 */
export function useKeptInPlace(
  files: ReadonlyArray<{ id: string }>,
  rows: GridRow[],
  rowStarts: number[],
  rowOfFile: (id: string) => number | undefined,
  gridTop: () => number,
) {
  const layout = useRef<Layout>({ files, rows, rowStarts, gridTop });
  const anchor = useRef<{ id: string; offset: number } | null>(null);

  useLayoutEffect(() => {
    const previous = layout.current.files;
    layout.current = { files, rows, rowStarts, gridTop };
    const kept = anchor.current;
    if (!kept || !loadedBefore(previous, files)) return;
    const row = rowOfFile(kept.id);
    if (row !== undefined) window.scrollTo(0, gridTop() + rowStarts[row]! - kept.offset);
  }, [files, rows, rowStarts, rowOfFile, gridTop]);

  useEffect(() => {
    const remember = () => {
      const current = layout.current;
      const top = current.gridTop();
      const row = firstRowInView(current, window.scrollY - top);
      const box = row === undefined ? undefined : current.rows[row]!.boxes[0];
      const file = box ? current.files[box.index] : undefined;
      anchor.current = file ? { id: file.id, offset: top + current.rowStarts[row!]! - window.scrollY } : null;
    };
    // Once a frame, when the frame lays the page out anyway (not in the scroll event, right after the grid
    // re-rendered its rows: that laid the page out twice a frame).
    let frame = 0;
    const onScroll = () => {
      if (!frame) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          remember();
        });
      }
    };
    remember();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, [files, rows, rowStarts, gridTop]);
}
