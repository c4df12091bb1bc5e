import type { CSSProperties } from 'react';
import type { FileRow } from '../api/search-files.ts';
import type { GridRow } from '../lib/justified-rows.ts';
import { FileCard } from './file-card.tsx';

/** What every card of the grid shares. */
export interface GridCards {
  files: FileRow[];
  isSelected: (id: string) => boolean;
  /** Something is selected: a click toggles a card rather than opening it. */
  selecting: boolean;
  isAdmin: boolean;
  onToggle: (index: number, range: boolean) => void;
  onPreview: (index: number) => void;
  showCaptureDate: boolean;
}

/** One row of the virtualized grid, `top` pixels down it: a month's heading, or its justified cards. */
export function FileGridRow({ row, top, files, isSelected, ...cards }: GridCards & { row: GridRow; top: number }) {
  const style: CSSProperties = { height: row.height, transform: `translateY(${top}px)` };
  if (row.heading) {
    return (
      <div role="listitem" className="file-grid-row file-grid-heading" style={style}>
        <h2 className="file-grid-month">{row.heading}</h2>
      </div>
    );
  }
  return (
    <div role="presentation" className="file-grid-row" style={style}>
      {row.boxes.map((box) => {
        const file = files[box.index]!;
        return <FileCard key={file.id} file={file} box={box} selected={isSelected(file.id)} {...cards} />;
      })}
    </div>
  );
}
