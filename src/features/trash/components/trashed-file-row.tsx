import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog, deleteQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { purgeDate, type TrashedFile } from '../api/get-trashed-files.ts';
import { trashThumbnailQueryOptions } from '../api/get-trash-thumbnail-url.ts';
import { pictureOf } from '../../../lib/media/file-picture.ts';

interface TrashedFileRowProps {
  file: TrashedFile;
  selected: boolean;
  busy: boolean;
  onSelect: (selected: boolean) => void;
  onRestore: () => void;
  onPurge: () => void;
}

/** One deleted file: picture, title, who deleted it and when, until when it is kept, and its actions. */
export function TrashedFileRow({ file, selected, busy, onSelect, onRestore, onPurge }: TrashedFileRowProps) {
  const titleId = `trashed-${file.file_id}`;
  return (
    <li className="trash-row" aria-labelledby={titleId}>
      <input
        type="checkbox"
        className="trash-row-select"
        checked={selected}
        onChange={(event) => onSelect(event.target.checked)}
        aria-label={`Seleccionar ${file.name_es}`}
      />
      <TrashThumbnail file={file} />
      <div className="trash-row-main">
        <p className="trash-row-title" id={titleId}>
          {file.name_es}
        </p>
        <p className="muted trash-row-meta">
          Borrado por {file.deleted_by_email ?? 'el sistema'} el {formatDateTime(file.deleted_at)}
        </p>
        <p className="muted trash-row-meta">
          Se borrará definitivamente el {formatDateTime(purgeDate(file.deleted_at))}
        </p>
      </div>
      <div className="trash-row-actions">
        <button type="button" className="button button-small" disabled={busy} onClick={onRestore}>
          Restaurar
        </button>
        <ConfirmDialog
          trigger={
            <button type="button" className="button button-danger button-small" disabled={busy}>
              Borrar definitivamente
            </button>
          }
          title="Borrar definitivamente"
          description={deleteQuestion(`definitivamente «${file.name_es}»`)}
          confirmLabel="Borrar definitivamente"
          onConfirm={onPurge}
        />
      </div>
    </li>
  );
}

/** The picture the file had (an image, a PDF's first page), now in the trash bucket; else its extension. */
function TrashThumbnail({ file }: { file: TrashedFile }) {
  const picture = pictureOf(file);
  const thumbnail = useQuery({
    ...trashThumbnailQueryOptions(picture ?? '', file.is_image ? 'trashPhoto' : 'trashPage', file.deleted_at),
    enabled: picture !== null,
  });
  if (picture && thumbnail.data) {
    return (
      <img
        className={`trash-thumbnail${file.is_image ? '' : ' trash-thumbnail-page'}`}
        src={thumbnail.data}
        alt=""
        loading="lazy"
      />
    );
  }
  return (
    <span className="trash-thumbnail trash-thumbnail-document" aria-hidden="true">
      {(file.extension || '?').toUpperCase()}
    </span>
  );
}
