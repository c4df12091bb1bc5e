import { useCallback, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { FileRow } from '../api/search-files.ts';
import type { FileDateColumn } from '../api/file-filters.ts';
import type { TimelineMonth } from '../api/get-file-months.ts';
import { BOX_SPACING, groupedRows, justifiedRows, type GridRow } from '../lib/justified-rows.ts';
import { fileMonth, monthLabel, type MonthKey } from '../lib/timeline.ts';
import { useKeptInPlace } from '../hooks/use-kept-in-place.ts';
import { FileCard } from './file-card.tsx';
import { TimelineScrubber } from './timeline-scrubber.tsx';

interface FileGridProps {
  files: FileRow[];
  isAdmin: boolean;
  isSelected: (id: string) => boolean;
  anySelected: boolean;
  onToggle: (index: number, range: boolean) => void;
  onPreview: (index: number) => void;
  /** Called when the rendered rows come near the end of what is loaded. */
  onNearEnd: () => void;
  /** Called when the rendered rows come near the start of what is loaded (a list that starts at a month). */
  onNearStart?: () => void;
  /**
   * Date sorts: the column they order by. The files go under a heading per month ('noviembre de 2026'), the
   * current one kept in view, with the timeline along the right edge.
   */
  dateColumn?: FileDateColumn | null;
  /** Every month of the filtered files, for the timeline (undefined while they load). */
  months?: TimelineMonth[];
  /** A month whose files are not loaded was chosen on the timeline: load the list from there. */
  onLoadMonth?: (month: MonthKey | null) => void;
}

/** Below the selection bar, which sticks to the window's top while anything is selected (its 'Deseleccionar' is at the right end). */
const SELECTION_BAR_CLEARANCE = 68;

/** The month heading of a file by the sort's date column, each month's text formatted once. */
function monthHeadings(column: FileDateColumn) {
  const labels = new Map<MonthKey | null, string>();
  return (file: FileRow) => {
    const month = fileMonth(file, column);
    let label = labels.get(month);
    if (label === undefined) labels.set(month, (label = monthLabel(month)));
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
  onNearStart,
  dateColumn = null,
  months,
  onLoadMonth,
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

  const items = virtualizer.getVirtualItems();
  const scrollOffset = virtualizer.scrollOffset ?? 0;
  const currentMonth = dateColumn ? stuckHeading(rows, items, scrollOffset, offsetTop) : null;
  const lastRendered = items[items.length - 1]?.index ?? -1;
  const nearEnd = rows.length > 0 && lastRendered >= rows.length - 3;
  const nearStart = rows.length > 0 && (items[0]?.index ?? 0) <= 2;
  const onNearEndRef = useRef(onNearEnd);
  const onNearStartRef = useRef(onNearStart);
  useLayoutEffect(() => {
    onNearEndRef.current = onNearEnd;
    onNearStartRef.current = onNearStart;
  });
  useLayoutEffect(() => {
    if (nearEnd) onNearEndRef.current();
  }, [nearEnd, files.length]);
  useLayoutEffect(() => {
    if (nearStart) onNearStartRef.current?.();
  }, [nearStart, files.length]);

  // The timeline: the month of the first row in view, and jumps to a month's heading, loaded or not.
  const firstInView = items.find((item) => item.end > scrollOffset + 1)?.index;
  const monthInView = dateColumn && firstInView !== undefined ? monthOfRow(rows, firstInView, files, dateColumn) : null;
  const wantedMonth = useRef<{ label: string } | null>(null);
  const scrollToMonth = useCallback(
    (label: string) => {
      const row = rows.findIndex((candidate) => candidate.heading === label);
      if (row === -1) return false;
      window.scrollTo(0, gridTop() + rowStarts[row]!);
      return true;
    },
    [rows, rowStarts, gridTop],
  );
  const jumpToMonth = useCallback(
    (month: MonthKey | null) => {
      const label = monthLabel(month);
      if (scrollToMonth(label)) return;
      wantedMonth.current = { label };
      onLoadMonth?.(month);
    },
    [scrollToMonth, onLoadMonth],
  );
  // A month chosen before its files were loaded: its heading, once the list from it arrives.
  useLayoutEffect(() => {
    if (wantedMonth.current && scrollToMonth(wantedMonth.current.label)) wantedMonth.current = null;
  }, [scrollToMonth]);

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
    <>
      {/* Beside the list, not in it: a list holds only its items. */}
      {dateColumn && months && months.length > 1 && (
        <TimelineScrubber
          months={months}
          current={monthInView}
          top={Math.max(anySelected ? SELECTION_BAR_CLEARANCE : 8, offsetTop - scrollOffset)}
          onJump={jumpToMonth}
        />
      )}
      <div
        ref={containerRef}
        className={`file-grid${anySelected ? ' file-grid-selecting' : ''}${dateColumn ? ' file-grid-timeline' : ''}`}
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
                    showCaptureDate={dateColumn === 'captured_at'}
                  />
                );
              })}
            </div>
          );
        })}
      </div>
    </>
  );
}

/** The month of a row's files (a heading row: of the files under it). */
function monthOfRow(rows: GridRow[], rowIndex: number, files: FileRow[], column: FileDateColumn): MonthKey | null {
  const row = rows[rowIndex]!.boxes.length > 0 ? rows[rowIndex] : rows[rowIndex + 1];
  const file = row?.boxes[0] ? files[row.boxes[0].index] : undefined;
  return file ? fileMonth(file, column) : null;
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
