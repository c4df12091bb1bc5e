import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { FileRow } from '../api/search-files.ts';
import type { FileDateColumn } from '../api/file-filters.ts';
import { BOX_SPACING, groupedRows, justifiedRows } from '../lib/justified-rows.ts';
import { monthHeadings } from '../lib/grid-months.ts';
import { useKeptInPlace } from './use-kept-in-place.ts';

/**
 * The grid's rows at its measured width (under month headings for a date sort), virtualized against the window,
 * with where each row starts and where the grid is in the page. The file in view stays in place while pages
 * arrive above it or the width changes.
 */
export function useGridLayout(files: FileRow[], dateColumn: FileDateColumn | null) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [offsetTop, setOffsetTop] = useState(0);
  useLayoutEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    const measure = () => {
      setWidth(Math.floor(element.getBoundingClientRect().width));
      setOffsetTop(element.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // Something appearing above the grid (the selection bar) moves it down without resizing it, but the page
    // grows: its top is read again then, or the timeline would start under that bar.
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const rows = useMemo(
    () => (dateColumn ? groupedRows(files, width, monthHeadings(dateColumn)) : justifiedRows(files, width)),
    [files, width, dateColumn],
  );
  const rowOf = useMemo(() => {
    const index = new Map<number, number>();
    rows.forEach((row, rowIndex) => row.boxes.forEach((box) => index.set(box.index, rowIndex)));
    return index;
  }, [rows]);

  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (index) => (rows[index]?.height ?? 0) + BOX_SPACING,
    overscan: 2,
    scrollMargin: offsetTop,
  });
  // Row heights are computed, not measured: when the layout changes (width, new pages), re-read them.
  useLayoutEffect(() => virtualizer.measure(), [rows, virtualizer]);
  // What is above the grid changes height without the grid changing size (the loading skeleton goes when the
  // rows come): its top is read again whenever the rows change.
  useLayoutEffect(() => {
    const element = containerRef.current;
    if (element) setOffsetTop(element.getBoundingClientRect().top + window.scrollY);
  }, [rows]);
  /** The grid's top in the page now (the state above can be a render behind). */
  const gridTop = useCallback(
    () => (containerRef.current ? containerRef.current.getBoundingClientRect().top + window.scrollY : offsetTop),
    [offsetTop],
  );
  // Where each row starts in the grid: rows are laid out, not measured, so this is exact before any paint.
  const rowStarts = useMemo(() => {
    const starts: number[] = [];
    let at = 0;
    for (const row of rows) {
      starts.push(at);
      at += row.height + BOX_SPACING;
    }
    return starts;
  }, [rows]);
  const rowOfFile = useCallback(
    (id: string) => {
      const index = files.findIndex((file) => file.id === id);
      return index === -1 ? undefined : rowOf.get(index);
    },
    [files, rowOf],
  );
  useKeptInPlace(files, rows, rowStarts, rowOfFile, gridTop);

  return { containerRef, offsetTop, rows, rowOf, rowStarts, gridTop, virtualizer };
}
