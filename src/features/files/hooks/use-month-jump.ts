import { useCallback, useLayoutEffect, useRef } from 'react';
import type { GridRow } from '../lib/justified-rows.ts';
import { monthLabel, type MonthKey } from '../lib/timeline.ts';

/**
 * The timeline's jump to a month: to its heading when it is loaded, else the list is loaded from that month
 * (`onLoadMonth`) and the heading is scrolled to once it arrives.
 */
export function useMonthJump(
  rows: GridRow[],
  rowStarts: number[],
  gridTop: () => number,
  onLoadMonth?: (month: MonthKey | null) => void,
) {
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
  return jumpToMonth;
}
