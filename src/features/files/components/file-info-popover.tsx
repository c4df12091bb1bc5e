import { useId } from 'react';
import * as Popover from '@radix-ui/react-popover';
import * as Switch from '@radix-ui/react-switch';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { formatDateTime, formatSize } from '../../../lib/format.ts';
import type { FileRow } from '../api/search-files.ts';
import { mediaUrlQuery } from '../api/get-media-url.ts';
import { usePublishFiles } from '../api/publish-files.ts';
import { pictureOf } from '../../../lib/media/file-picture.ts';

/**
 * The admin info panel of a card, opened (loaded on first use by FileInfoButton). Its state control is a
 * switch (Radix: role switch, aria-checked) whose label says the state the file is in, 'Activo' or 'No activo'.
 */
export function FileInfoPopover({ file, onPreview }: { file: FileRow; onPreview: () => void }) {
  const publish = usePublishFiles();
  const switchId = useId();
  return (
    <Popover.Root defaultOpen>
      <Popover.Trigger className="file-info-button" aria-label={`Información de ${file.name_es}`}>
        <span aria-hidden="true">i</span>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="file-info-panel"
          aria-label={`Información de ${file.name_es}`}
          sideOffset={6}
          align="end"
          collisionPadding={8}
        >
          <strong className="file-info-name">{file.name_es}</strong>
          <span>{formatSize(file.size)}</span>
          <span>{formatDateTime(file.uploaded_on)}</span>
          <span className="switch-field">
            <Switch.Root
              id={switchId}
              className="switch"
              checked={file.published}
              disabled={publish.isPending}
              onCheckedChange={(published) => publish.mutate({ selection: { kind: 'ids', ids: [file.id] }, published })}
            >
              <Switch.Thumb className="switch-thumb" />
            </Switch.Root>
            <label htmlFor={switchId}>{file.published ? 'Activo' : 'No activo'}</label>
          </span>
          <span className="file-info-links">
            <Link to={paths.file(file.id)}>Editar</Link>
            {(file.is_image || pictureOf(file)) && (
              <Popover.Close className="link-button link-button-inline" onClick={onPreview} disabled={file.processing}>
                Ver en grande
              </Popover.Close>
            )}
            {!file.is_image && <DownloadLink file={file} />}
          </span>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function DownloadLink({ file }: { file: FileRow }) {
  const url = useQuery(mediaUrlQuery(file.object_path, 'download', file.original_file_name));
  if (!url.data) return <span className="muted">Descargar</span>;
  return <a href={url.data}>Descargar</a>;
}
