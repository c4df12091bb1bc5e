import type { FileDateColumn, FileSort } from '../api/file-filters.ts';
import { formatMonth } from '../../../lib/format.ts';

/** A month of the timeline as 'YYYY-MM' in the browser's time zone (what public.file_months groups by). */
export type MonthKey = string;

/** The heading of the files without a date (a capture date the file did not say). */
export const UNDATED_LABEL = 'Sin fecha';

/** The browser's IANA time zone, so the database's months are the ones the headings show. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function monthKeyOf(date: Date): MonthKey {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;
}

/** The month of a file by the sort's date column, or null when it has no date. */
export function fileMonth(
  file: Partial<Record<FileDateColumn, string | null>>,
  column: FileDateColumn,
): MonthKey | null {
  const value = file[column];
  return value ? monthKeyOf(new Date(value)) : null;
}

/** The first moment of a month in the browser's time zone. */
export function monthStart(month: MonthKey): Date {
  const [year, monthNumber] = month.split('-').map(Number);
  return new Date(year!, monthNumber! - 1, 1);
}

/** 'marzo de 2026', or 'Sin fecha' for the files without one. */
export const monthLabel = (month: MonthKey | null) => (month ? formatMonth(monthStart(month)) : UNDATED_LABEL);

const FIRST_ID = '00000000-0000-0000-0000-000000000000';
const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/**
 * The keyset cursor whose next page starts at a month's first file in this date sort, as search_files takes it
 * (the page holds the files after the cursor). Newest first: after the start of the next month with the
 * lowest id, so every file before that moment and none at it. Oldest first: after the last microsecond of the
 * previous month with the highest id, so every file from the month's first moment on.
 */
export function monthCursor(month: MonthKey, sort: FileSort): { key: string; id: string } {
  const start = monthStart(month);
  if (sort.endsWith('_desc')) {
    const next = new Date(start.getFullYear(), start.getMonth() + 1, 1);
    return { key: next.toISOString(), id: FIRST_ID };
  }
  // Month starts are whole seconds: the second before, to the microsecond (what timestamptz keeps).
  const lastMicrosecond = new Date(start.getTime() - 1000).toISOString().replace(/\.\d{3}Z$/, '.999999Z');
  return { key: lastMicrosecond, id: LAST_ID };
}
