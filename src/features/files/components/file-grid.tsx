import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { FileRow } from '../api/search-files.ts';
import { BOX_SPACING, groupedRows, justifiedRows, type GridRow } from '../lib/justified-rows.ts';
import { formatMonth } from '../../../lib/format.ts';
import { FileCard } from './file-card.tsx';

interface FileGridProps {
  files: FileRow[];
  isAdmin: boolean;
  isSelected: (id: string) => boolean;
  anySelected: boolean;
  onToggle: (index: number, range: boolean) => void;
  onPreview: (index: number) => void;
  /** Called when the rendered rows come near the end of what is loaded. */
  onNearEnd: () => void;
  /** Date sorts: the files under a heading per month ('noviembre de 2026'), the current one kept in view. */
  groupByMonth?: boolean;
  /** Which date the months are of: the capture date under the capture sorts. */
  monthDate?: 'uploaded_on' | 'captured_at';
}

/** Files the camera did not date come last under the capture sorts, under this heading. */
const NO_CAPTURE_DATE = 'Sin fecha de captura';

/** The month heading of the sort's date (upload or capture), each month's text formatted once. */
function monthHeadings(dateColumn: 'uploaded_on' | 'captured_at') {
  const labels = new Map<number, string>();
  return (file: FileRow) => {
    const value = file[dateColumn];
    if (value === null) return NO_CAPTURE_DATE;
    const date = new Date(value);
    const key = date.getFullYear() * 12 + date.getMonth();
    let label = labels.get(key);
    if (label === undefined) labels.set(key, (label = formatMonth(date)));
    return label;
  };
}

/** The next row with cards from `rowIndex` in `step` direction: month headings are skipped. */
function rowWithCards(rows: GridRow[], rowIndex: number, step: 1 | -1): GridRow | undefined {
  for (let index = rowIndex + step; index >= 0 && index < rows.length; index += step) {
    if (rows[index]!.boxes.length > 0) return rows[index];
  }
  return undefined;
}

/** The row whose centre is nearest to a horizontal position: where Up/Down should land. */
function nearestInRow(row: GridRow, centre: number): number {
  let best = row.boxes[0]!;
  for (const box of row.boxes) {
    if (Math.abs(box.left + box.width / 2 - centre) < Math.abs(best.left + best.width / 2 - centre)) best = box;
  }
  return best.index;
}

/**
 * The justified grid of the files screen, virtualized by rows for 100k files: only the rows near the
 * viewport are in the DOM, each with its exact height, so nothing overlaps. Arrow keys move between cards,
 * Space toggles the focused card's selection.
 */
export function FileGrid({
  files,
  isAdmin,
  isSelected,
  anySelected,
  onToggle,
  onPreview,
  onNearEnd,
  groupByMonth = false,
  monthDate = 'uploaded_on',
}: FileGridProps) {
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
    return () => observer.disconnect();
  }, []);

  const rows = useMemo(
    () => (groupByMonth ? groupedRows(files, width, monthHeadings(monthDate)) : justifiedRows(files, width)),
    [files, width, groupByMonth, monthDate],
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

  const items = virtualizer.getVirtualItems();
  const currentMonth = groupByMonth ? stuckHeading(rows, items, virtualizer.scrollOffset ?? 0, offsetTop) : null;
  const lastRendered = items[items.length - 1]?.index ?? -1;
  const nearEnd = rows.length > 0 && lastRendered >= rows.length - 3;
  const onNearEndRef = useRef(onNearEnd);
  useLayoutEffect(() => {
    onNearEndRef.current = onNearEnd;
  });
  useLayoutEffect(() => {
    if (nearEnd) onNearEndRef.current();
  }, [nearEnd, files.length]);

  const focusCard = (index: number) => {
    const rowIndex = rowOf.get(index);
    if (rowIndex === undefined) return;
    virtualizer.scrollToIndex(rowIndex, { align: 'auto' });
    requestAnimationFrame(() =>
      containerRef.current?.querySelector<HTMLElement>(`[data-index="${index}"]`)?.focus({ preventScroll: true }),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = Number((event.target as HTMLElement).dataset.index);
    if (Number.isNaN(index)) return;
    const rowIndex = rowOf.get(index);
    if (rowIndex === undefined) return;
    const box = rows[rowIndex]!.boxes.find((candidate) => candidate.index === index)!;
    const centre = box.left + box.width / 2;
    let target: number | null = null;
    if (event.key === 'ArrowRight') target = Math.min(files.length - 1, index + 1);
    if (event.key === 'ArrowLeft') target = Math.max(0, index - 1);
    const below = rowWithCards(rows, rowIndex, 1);
    const above = rowWithCards(rows, rowIndex, -1);
    if (event.key === 'ArrowDown' && below) target = nearestInRow(below, centre);
    if (event.key === 'ArrowUp' && above) target = nearestInRow(above, centre);
    if (event.key === ' ') {
      event.preventDefault();
      onToggle(index, event.shiftKey);
      return;
    }
    if (target === null) return;
    event.preventDefault();
    focusCard(target);
  };

  return (
    <div
      ref={containerRef}
      className={`file-grid${anySelected ? ' file-grid-selecting' : ''}`}
      role="list"
      aria-label="Archivos"
      style={{ height: virtualizer.getTotalSize() }}
      onKeyDown={onKeyDown}
    >
      {currentMonth && (
        <div className="file-grid-sticky" aria-hidden="true">
          <span>{currentMonth}</span>
        </div>
      )}
      {items.map((item) => {
        const row = rows[item.index]!;
        const style = {
          height: row.height,
          transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)`,
        };
        if (row.heading) {
          return (
            <div key={item.key} role="listitem" className="file-grid-row file-grid-heading" style={style}>
              <h2 className="file-grid-month">{row.heading}</h2>
            </div>
          );
        }
        return (
          <div key={item.key} role="presentation" className="file-grid-row" style={style}>
            {row.boxes.map((box) => {
              const file = files[box.index]!;
              return (
                <FileCard
                  key={file.id}
                  file={file}
                  box={box}
                  selected={isSelected(file.id)}
                  selecting={anySelected}
                  isAdmin={isAdmin}
                  onToggle={onToggle}
                  onPreview={onPreview}
                  showCaptureDate={groupByMonth && monthDate === 'captured_at'}
                />
              );
            })}
          </div>
        );
      })}
    </div>
  );
}

/**
 * The month to keep at the top while scrolling: the heading of the first row on screen, once that month's own
 * heading row has gone above the window's top edge (until then the heading itself shows it).
 */
function stuckHeading(
  rows: GridRow[],
  items: ReadonlyArray<{ index: number; start: number; end: number }>,
  scrollOffset: number,
  offsetTop: number,
): string | null {
  const top = scrollOffset;
  const first = items.find((item) => item.end > top);
  if (!first || first.start >= top - 1 || offsetTop > scrollOffset) return null;
  for (let index = first.index; index >= 0; index--) {
    if (rows[index]!.heading) return index === first.index ? null : rows[index]!.heading!;
  }
  return null;
}
