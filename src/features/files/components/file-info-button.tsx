import { useState, type ReactNode } from 'react';
import type { FileRow } from '../api/search-files.ts';
import { onDemand } from '../../../lib/on-demand.ts';

// The panel and Radix's popover load on the first click on any card's button, not with the files screen.
const infoPopoverModule = onDemand(() => import('./file-info-popover.tsx'));

/** The panel once its module is in; until then the plain button stays where it is. */
function LoadedInfoPopover({
  file,
  onPreview,
  placeholder,
}: {
  file: FileRow;
  onPreview: () => void;
  placeholder: ReactNode;
}) {
  const FileInfoPopover = infoPopoverModule.useModule(true)?.FileInfoPopover;
  return FileInfoPopover ? <FileInfoPopover file={file} onPreview={onPreview} /> : placeholder;
}

/**
 * The admin info panel of a card: name, size, date, the Activo toggle, Editar and 'Ver en grande'
 * (images, in the lightbox) or Descargar (documents). A Radix popover: Esc closes it and focus goes back.
 */
export function FileInfoButton({ file, onPreview }: { file: FileRow; onPreview: () => void }) {
  // A plain button until first used: the grid mounts cards as fast as a person scrolls, and most info panels
  // are never opened, so each card does not pay for a popover it will not show.
  const [used, setUsed] = useState(false);
  const plain = (
    <button
      type="button"
      className="file-info-button"
      aria-label={`Información de ${file.name_es}`}
      aria-haspopup="dialog"
      aria-expanded={false}
      onClick={() => setUsed(true)}
    >
      <span aria-hidden="true">i</span>
    </button>
  );
  return used ? <LoadedInfoPopover file={file} onPreview={onPreview} placeholder={plain} /> : plain;
}
