import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { formatSize } from '../../../lib/format.ts';
import { fileExtension } from '../../../lib/uploads/file-name.ts';
import type { UploadActions } from '../hooks/use-upload-queue.ts';
import { canPreview, phaseText, type UploadItem } from '../lib/upload-items.ts';

/** One listed upload: thumbnail or extension tile, name, size, a progress bar and what can be done now. */
export function UploadListItem({
  item,
  thumbnail,
  actions,
}: {
  item: UploadItem;
  thumbnail: boolean;
  actions: UploadActions;
}) {
  const status = phaseText(item);
  const bar = item.phase === 'done' || item.phase === 'recording' ? 1 : item.progress;
  return (
    <li className={`upload-item is-${item.phase}`}>
      <Thumbnail file={item.file} name={item.name} show={thumbnail} />
      <div className="upload-item-body">
        <div className="upload-item-heading">
          <span className="upload-item-name">{item.name}</span>
          <span className="upload-item-size">{formatSize(item.size)}</span>
        </div>
        {item.phase !== 'duplicate' && (
          <div
            className="upload-item-bar"
            role="progressbar"
            aria-label={`Progreso de ${item.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.floor(bar * 100)}
            aria-valuetext={status}
          >
            <span style={{ width: `${bar * 100}%` }} />
          </div>
        )}
        <p className="upload-item-status" role={item.phase === 'error' ? 'alert' : undefined}>
          {item.phase === 'duplicate' ? <CopyText item={item} /> : status}
        </p>
        <ItemActions item={item} actions={actions} />
      </div>
    </li>
  );
}

function CopyText({ item }: { item: UploadItem }) {
  const copy = item.existing;
  if (copy?.inThisList) return <>Es idéntico a «{copy.name}», que ya está en esta lista.</>;
  if (copy?.fileId)
    return (
      <>
        Ya está en la biblioteca: <Link to={paths.file(copy.fileId)}>{copy.name || 'ver el archivo'}</Link>.
      </>
    );
  return <>Ya hay un archivo idéntico en la biblioteca, subido por otra persona.</>;
}

function ItemActions({ item, actions }: { item: UploadItem; actions: UploadActions }) {
  const buttons: Array<{ label: string; run: () => void; primary?: boolean }> = [];
  if (item.phase === 'duplicate') {
    buttons.push({ label: 'Subir de todos modos', run: () => actions.uploadAnyway(item), primary: true });
    buttons.push({ label: 'Omitir', run: () => actions.skip(item) });
  } else if (item.phase === 'uploading' || item.phase === 'paused') {
    const paused = item.phase === 'paused';
    buttons.push({ label: paused ? 'Reanudar' : 'Pausar', run: () => actions.pauseResume(item) });
    buttons.push({ label: 'Cancelar', run: () => actions.remove(item) });
  } else if (item.phase === 'error') {
    if (item.retryable) buttons.push({ label: 'Reintentar', run: () => actions.retry(item), primary: true });
    buttons.push({ label: 'Quitar', run: () => actions.remove(item) });
  } else if (item.phase === 'checking' || item.phase === 'queued') {
    buttons.push({ label: 'Cancelar', run: () => actions.remove(item) });
  }
  if (buttons.length === 0) return null;
  return (
    <div className="upload-item-actions">
      {buttons.map((button) => (
        <button
          key={button.label}
          type="button"
          className={`button${button.primary ? ' button-primary' : ''}`}
          aria-label={`${button.label}: ${item.name}`}
          onClick={button.run}
        >
          {button.label}
        </button>
      ))}
    </div>
  );
}

/**
 * A JPEG or PNG's own picture while the list is short; otherwise (or if the browser cannot decode it) the
 * extension in a tile. Decorative: the name is beside it.
 */
function Thumbnail({ file, name, show }: { file: File; name: string; show: boolean }) {
  const image = useRef<HTMLImageElement>(null);
  const [broken, setBroken] = useState(false);
  const wanted = show && canPreview(name) && !broken;
  // The object URL lives exactly as long as the picture shows it.
  useEffect(() => {
    const element = image.current;
    if (!wanted || !element) return;
    const url = URL.createObjectURL(file);
    element.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file, wanted]);
  if (wanted)
    return (
      <img ref={image} className="upload-item-thumbnail" alt="" decoding="async" onError={() => setBroken(true)} />
    );
  return (
    <span className="upload-item-tile" aria-hidden="true">
      {fileExtension(name).slice(0, 4).toUpperCase() || '—'}
    </span>
  );
}
