import type { FileRow } from '../api/search-files.ts';
import type { FileDateColumn } from '../api/file-filters.ts';
import type { TimelineMonth } from '../api/get-file-months.ts';
import type { MonthKey } from '../lib/timeline.ts';
import { monthOfRow, stuckHeading } from '../lib/grid-months.ts';
import { useGridLayout } from '../hooks/use-grid-layout.ts';
import { useLoadNearEdges } from '../hooks/use-load-near-edges.ts';
import { useMonthJump } from '../hooks/use-month-jump.ts';
import { useGridKeys } from '../hooks/use-grid-keys.ts';
import { useSelectionBarClearance } from '../hooks/use-selection-bar-clearance.ts';
import { FileGridRow } from './file-grid-row.tsx';
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
  const { containerRef, offsetTop, rows, rowOf, rowStarts, gridTop, virtualizer } = useGridLayout(files, dateColumn);
  const items = virtualizer.getVirtualItems();
  const scrollOffset = virtualizer.scrollOffset ?? 0;
  const currentMonth = dateColumn ? stuckHeading(rows, items, scrollOffset, offsetTop) : null;
  useLoadNearEdges({ rowCount: rows.length, rendered: items, fileCount: files.length, onNearEnd, onNearStart });

  // The timeline: the month of the first row in view, and jumps to a month's heading, loaded or not.
  const firstInView = items.find((item) => item.end > scrollOffset + 1)?.index;
  const monthInView = dateColumn && firstInView !== undefined ? monthOfRow(rows, firstInView, files, dateColumn) : null;
  const jumpToMonth = useMonthJump(rows, rowStarts, gridTop, onLoadMonth);
  // Below the selection bar, which sticks to the window's top while anything is selected: its years stay in view.
  const clearance = useSelectionBarClearance(anySelected, containerRef);
  const onKeyDown = useGridKeys({ rows, rowOf, fileCount: files.length, virtualizer, containerRef, onToggle });

  return (
    <>
      {/* Beside the list, not in it: a list holds only its items. */}
      {dateColumn && months && months.length > 1 && (
        <TimelineScrubber
          months={months}
          current={monthInView}
          top={Math.max(clearance, offsetTop - scrollOffset)}
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

        {items.map((item) => (
          <FileGridRow
            key={item.key}
            row={rows[item.index]!}
            top={item.start - virtualizer.options.scrollMargin}
            files={files}
            isSelected={isSelected}
            selecting={anySelected}
            isAdmin={isAdmin}
            onToggle={onToggle}
            onPreview={onPreview}
            showCaptureDate={dateColumn === 'captured_at'}
          />
        ))}
      </div>
    </>
  );
}
