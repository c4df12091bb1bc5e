import type { FileRow } from '../api/search-files.ts';
import type { FileDateColumn } from '../api/file-filters.ts';
import type { GridRow } from './justified-rows.ts';
import { fileMonth, monthLabel, type MonthKey } from './timeline.ts';

/** The month heading of a file by the sort's date column, each month's text formatted once. */
export function monthHeadings(column: FileDateColumn) {
  const labels = new Map<MonthKey | null, string>();
  return (file: FileRow) => {
    const month = fileMonth(file, column);
    let label = labels.get(month);
    if (label === undefined) labels.set(month, (label = monthLabel(month)));
    return label;
  };
}

/** The month of a row's files (a heading row: of the files under it). */
export function monthOfRow(
  rows: GridRow[],
  rowIndex: number,
  files: FileRow[],
  column: FileDateColumn,
): MonthKey | null {
  const row = rows[rowIndex]!.boxes.length > 0 ? rows[rowIndex] : rows[rowIndex + 1];
  const file = row?.boxes[0] ? files[row.boxes[0].index] : undefined;
  return file ? fileMonth(file, column) : null;
}

/**
 * The month to keep at the top while scrolling: the heading of the first row on screen, once that month's own
 * heading row has gone above the window's top edge (until then the heading itself shows it).
 */
export function stuckHeading(
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
