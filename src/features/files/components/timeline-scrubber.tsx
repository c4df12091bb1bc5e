import { memo, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { TimelineMonth } from '../api/get-file-months.ts';
import { monthLabel, type MonthKey } from '../lib/timeline.ts';

interface TimelineScrubberProps {
  /** Every month of the filtered files in the grid's order, with how many files each holds. */
  months: TimelineMonth[];
  /** The month of the first row in view. */
  current: MonthKey | null;
  /** Distance from the window's top edge: the grid's top while it is in view, else a small margin. */
  top: number;
  onJump: (month: MonthKey | null) => void;
}

/** Share of the bar a month of few files still gets, so every month can be pointed at. */
const MIN_SHARE = 1 / 150;
/** Closest two year labels (or two month marks) may be drawn, in pixels. */
const LABEL_GAP = 16;
const MARK_GAP = 4;

/** Where each month starts along the bar (0…1), as a share of the files with a floor for small months. */
function monthStarts(months: TimelineMonth[]): number[] {
  const total = months.reduce((sum, month) => sum + month.files, 0);
  const weights = months.map((month) => Math.max(month.files, total * MIN_SHARE));
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  let at = 0;
  return weights.map((weight) => {
    const start = at;
    at += weight / sum;
    return start;
  });
}

/**
 * The timeline along the grid's right edge, as in a photo app: the library's months top to bottom, each as tall
 * as its share of the files, the years written where they start. Pointing shows the month under the pointer;
 * a click, a tap or the end of a drag jumps there. A slider for the keyboard: arrows move a month, Page Up and
 * Page Down a year, Home and End to either end.
 */
export const TimelineScrubber = memo(function TimelineScrubber({
  months,
  current,
  top,
  onJump,
}: TimelineScrubberProps) {
  const barRef = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  /** The month under the pointer and the pointer's height along the bar, while pointing or dragging. */
  const [pointed, setPointed] = useState<{ index: number; y: number } | null>(null);
  const dragging = useRef(false);
  useLayoutEffect(() => {
    const bar = barRef.current;
    if (!bar) return;
    const observer = new ResizeObserver(() => setHeight(bar.clientHeight));
    observer.observe(bar);
    setHeight(bar.clientHeight);
    return () => observer.disconnect();
  }, []);

  const starts = useMemo(() => monthStarts(months), [months]);
  const currentIndex = Math.max(
    0,
    months.findIndex((month) => month.month === current),
  );
  // Year labels where a year starts (and marks for months) when they do not crowd the previous one.
  const { years, marks } = useMemo(() => {
    const years: Array<{ index: number; year: string }> = [];
    const marks: number[] = [];
    let lastYear = -Infinity;
    let lastMark = -Infinity;
    months.forEach((month, index) => {
      const y = starts[index]! * height;
      const year = month.month?.slice(0, 4) ?? null;
      const previousYear = index > 0 ? (months[index - 1]!.month?.slice(0, 4) ?? null) : undefined;
      if (year && year !== previousYear && y - lastYear >= LABEL_GAP) {
        years.push({ index, year });
        lastYear = y;
        lastMark = y;
      } else if (y - lastMark >= MARK_GAP && y - lastYear >= MARK_GAP + 6) {
        marks.push(index);
        lastMark = y;
      }
    });
    return { years, marks };
  }, [months, starts, height]);

  const monthAt = (clientY: number) => {
    const box = barRef.current!.getBoundingClientRect();
    const y = Math.min(box.height, Math.max(0, clientY - box.top));
    const share = y / Math.max(1, box.height);
    let index = 0;
    while (index + 1 < starts.length && starts[index + 1]! <= share) index += 1;
    return { index, y };
  };
  const jumpTo = (index: number) => onJump(months[index]!.month);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    dragging.current = true;
    event.currentTarget.setPointerCapture(event.pointerId);
    setPointed(monthAt(event.clientY));
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => setPointed(monthAt(event.clientY));
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!dragging.current) return;
    dragging.current = false;
    jumpTo(monthAt(event.clientY).index);
    if (event.pointerType !== 'mouse') setPointed(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const steps: Record<string, number> = {
      ArrowDown: 1,
      ArrowRight: 1,
      ArrowUp: -1,
      ArrowLeft: -1,
      PageDown: 12,
      PageUp: -12,
      Home: -months.length,
      End: months.length,
    };
    const step = steps[event.key];
    if (step === undefined) return;
    event.preventDefault();
    jumpTo(Math.min(months.length - 1, Math.max(0, currentIndex + step)));
  };

  // Shown while pointing, and while the bar has the keyboard's focus (CSS): the month it would jump to.
  const shown = pointed ?? { index: currentIndex, y: (starts[currentIndex] ?? 0) * height };
  return (
    <div
      ref={barRef}
      className="timeline-scrubber"
      style={{ top }}
      role="slider"
      tabIndex={0}
      aria-label="Línea de tiempo"
      aria-orientation="vertical"
      aria-valuemin={0}
      aria-valuemax={months.length - 1}
      aria-valuenow={currentIndex}
      aria-valuetext={monthLabel(months[currentIndex]?.month ?? null)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        dragging.current = false;
        setPointed(null);
      }}
      onPointerLeave={(event) => {
        if (!dragging.current && event.pointerType === 'mouse') setPointed(null);
      }}
      onKeyDown={onKeyDown}
    >
      {marks.map((index) => (
        <span key={index} className="timeline-mark" style={{ top: `${starts[index]! * 100}%` }} aria-hidden="true" />
      ))}
      {years.map(({ index, year }) => (
        <span key={year} className="timeline-year" style={{ top: `${starts[index]! * 100}%` }} aria-hidden="true">
          {year}
        </span>
      ))}
      <span className="timeline-now" style={{ top: `${(starts[currentIndex] ?? 0) * 100}%` }} aria-hidden="true" />
      <span
        className={`timeline-label${pointed ? ' timeline-label-pointed' : ''}`}
        style={{ top: shown.y }}
        aria-hidden="true"
      >
        {monthLabel(months[shown.index]?.month ?? null)}
      </span>
    </div>
  );
});
