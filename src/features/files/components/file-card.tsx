import { memo } from 'react';
import { Link } from 'react-router-dom';
import type { FileRow } from '../api/search-files.ts';
import type { GridBox } from '../lib/justified-rows.ts';
import { FileThumbnail } from './file-thumbnail.tsx';
import { FileInfoButton } from './file-info-button.tsx';
import { formatDateTime, formatSize } from '../../../lib/format.ts';
import { paths } from '../../../config/paths.ts';
import { pictureOf } from '../../../lib/media/file-picture.ts';
import { formatDay, rightsState } from '../lib/rights.ts';

const RIGHTS_BADGES = {
  expired: { label: 'Derechos caducados', title: 'Los derechos caducaron el' },
  expiring: { label: 'Caducan pronto', title: 'Los derechos caducan el' },
} as const;

interface FileCardProps {
  file: FileRow;
  box: GridBox;
  selected: boolean;
  /** Something is selected: a plain click adds or removes this card instead of opening it, as in a photo app. */
  selecting: boolean;
  isAdmin: boolean;
  onToggle: (index: number, range: boolean) => void;
  onPreview: (index: number) => void;
  /** Under the capture-date sorts the caption shows when the picture was taken (if known), not uploaded. */
  showCaptureDate?: boolean;
}

/**
 * One card of the grid: the picture at its justified size, the selection checkbox (shown on hover, focus or
 * while anything is selected), the zoom button of a file with a picture, the admin's Activo/No activo badge and
 * info button, and the caption.
 * A click opens the file, unless something is selected: then a click or tap toggles the card and shift-click
 * extends the range (shift-click also starts a selection). Ctrl/meta-click opens the file in a new window, as
 * any link does.
 */
export const FileCard = memo(function FileCard({
  file,
  box,
  selected,
  selecting,
  isAdmin,
  onToggle,
  onPreview,
  showCaptureDate = false,
}: FileCardProps) {
  // A document shown by its first page says what it is in the caption (its tile would have said it).
  const kind = !file.is_image && pictureOf(file) ? `${(file.extension || '?').toUpperCase()} · ` : '';
  const date = showCaptureDate && file.captured_at ? file.captured_at : file.uploaded_on;
  const meta = `${kind}${formatSize(file.size)} · ${formatDateTime(date)}`;
  const rights = rightsState(file.rights_expire_on);
  return (
    <div
      role="listitem"
      className={`file-card${selected ? ' file-card-selected' : ''}`}
      style={{ left: box.left, width: box.width }}
    >
      <Link
        to={paths.file(file.id)}
        className="file-card-link"
        data-index={box.index}
        // Shift-click would otherwise extend the page's text selection across the cards it passes over.
        onMouseDown={(event) => event.shiftKey && event.preventDefault()}
        onClick={(event) => {
          if (event.ctrlKey || event.metaKey || (!selecting && !event.shiftKey)) return;
          event.preventDefault();
          onToggle(box.index, event.shiftKey);
        }}
      >
        <span className="file-card-media" style={{ height: box.height }}>
          <FileThumbnail file={file} />
        </span>
        <span className="file-name" title={file.name_es}>
          {file.name_es}
        </span>
      </Link>
      <input
        type="checkbox"
        className="file-select"
        aria-label={`Seleccionar ${file.name_es}`}
        checked={selected}
        onChange={() => {}}
        onClick={(event) => onToggle(box.index, event.shiftKey)}
      />
      {(isAdmin || file.duplicate_of || rights) && (
        <span className="file-badges" style={{ top: box.height }}>
          {isAdmin && (
            <span className={`file-badge ${file.published ? 'file-badge-on' : 'file-badge-off'}`}>
              {file.published ? 'Activo' : 'No activo'}
            </span>
          )}
          {file.duplicate_of && (
            <span
              className="file-badge file-badge-duplicate"
              title="Otro archivo de la mediateca tiene los mismos bytes"
            >
              Duplicado
            </span>
          )}
          {rights && (
            <span
              className={`file-badge file-badge-rights-${rights}`}
              title={`${RIGHTS_BADGES[rights].title} ${formatDay(file.rights_expire_on!)}`}
            >
              {RIGHTS_BADGES[rights].label}
            </span>
          )}
        </span>
      )}
      {pictureOf(file) && !file.processing && (
        <button
          type="button"
          className={`file-zoom${isAdmin ? ' file-zoom-beside-info' : ''}`}
          aria-label={`Ver en grande ${file.name_es}`}
          title="Ver en grande"
          onClick={() => onPreview(box.index)}
        >
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
            <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M12.6 12.6L17 17M6 8.5h5M8.5 6v5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      )}
      {isAdmin && <FileInfoButton file={file} onPreview={() => onPreview(box.index)} />}
      <span className="file-meta" title={meta}>
        {meta}
      </span>
    </div>
  );
});
