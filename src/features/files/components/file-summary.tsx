import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import type { FileDetail } from '../api/get-file-detail.ts';
import { mediaUrlQuery } from '../api/get-media-url.ts';
import { usePublishFiles } from '../api/publish-files.ts';
import { useDeleteFiles } from '../api/delete-files.ts';
import { Lightbox } from './lightbox.tsx';
import { ReplaceFileButton } from './replace-file-button.tsx';
import { FileHistory } from './file-history.tsx';
import { FileMetadata } from './file-metadata.tsx';
import { FileJobProblems } from './file-job-problems.tsx';
import { hasFailedProcessing } from './file-thumbnail.tsx';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import { formatDateTime, formatSize } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { paths } from '../../../config/paths.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ConfirmDialog, trashQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { pictureOf } from '../../../lib/media/file-picture.ts';
import { formatDay, rightsState } from '../lib/rights.ts';
import { ShareLinkDialog } from '../../../components/share-link/share-link-dialog.tsx';

const COPY_CONFIRMATION_MS = 1000;
const DELETE_PROCESSING_AFTER_MS = 60 * 60 * 1000;

/** The file itself: preview, facts, sharing link and the actions on it. */
export function FileSummary({ file }: { file: FileDetail }) {
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const picture = pictureOf(file);
  const original = useQuery(mediaUrlQuery(file.object_path, 'download', file.original_file_name));
  const preview = useQuery({ ...mediaUrlQuery(picture ?? '', 'preview'), enabled: picture !== null });
  const [lightboxOpen, setLightboxOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  // When the screen was opened: a processing upload older than an hour may be deleted.
  const [openedAt] = useState(() => Date.now());
  const publish = usePublishFiles();
  const remove = useDeleteFiles();

  const sharingUrl = `${window.location.origin}/file/${file.id}`;
  const copyUrl = async () => {
    try {
      await navigator.clipboard.writeText(sharingUrl);
      setCopied(true);
      setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    } catch {
      notify.error(new Error('No se pudo copiar la URL'));
    }
  };
  const canDelete = !file.processing || openedAt - new Date(file.uploaded_on).getTime() > DELETE_PROCESSING_AFTER_MS;

  return (
    <div className="file-summary">
      <p className="file-original">
        {original.data ? <a href={original.data}>{file.original_file_name}</a> : file.original_file_name}
      </p>
      <div className="file-preview">
        {hasFailedProcessing(file) ? (
          <div className="file-tile file-tile-failed" role="alert">
            <strong className="file-tile-failed-title">No se pudo procesar</strong>
            <span>{file.processing_error}</span>
            <span>Sustituye el archivo con «Subir nuevo archivo» o bórralo.</span>
          </div>
        ) : file.processing ? (
          <Spinner label="Procesando" />
        ) : picture && preview.data ? (
          <button type="button" className="file-preview-button" onClick={() => setLightboxOpen(true)}>
            <img
              className={file.is_image ? undefined : 'file-preview-page'}
              src={preview.data}
              alt={file.is_image ? `Vista previa de ${file.name_es}` : `Primera página de ${file.name_es}`}
            />
          </button>
        ) : (
          <a
            className="file-tile file-tile-document"
            href={original.data}
            aria-label={`Descargar ${file.original_file_name}`}
          >
            {(file.extension || '?').toUpperCase()}
          </a>
        )}
      </div>
      {isAdmin && <FileJobProblems fileId={file.id} />}
      <dl className="file-facts">
        <dt>Estado</dt>
        <dd>
          {file.published ? 'Activo' : 'No activo'}
          {file.published && rightsState(file.rights_expire_on) === 'expired' && (
            <span className="file-state-expired">
              {' '}
              · no se publica: sus derechos caducaron el {formatDay(file.rights_expire_on!)}
            </span>
          )}
        </dd>
        <dt>Tamaño</dt>
        <dd>{formatSize(file.size)}</dd>
        <dt>Fecha</dt>
        <dd>{formatDateTime(file.uploaded_on)}</dd>
        <dt>Subido por</dt>
        <dd>{file.uploader_email ?? '—'}</dd>
        {file.duplicate_of && (
          <>
            <dt>Duplicado</dt>
            <dd>
              Ya existe: <Link to={paths.file(file.duplicate_of)}>ver el archivo original</Link>
            </dd>
          </>
        )}
      </dl>
      <FileMetadata file={file} />
      <div className="file-actions">
        <button type="button" className="button" onClick={() => void copyUrl()}>
          {copied ? 'URL copiada' : 'Copiar URL'}
        </button>
        <ReplaceFileButton file={file} />
        {/* A file that could not be processed is not publishable until it is replaced. */}
        {isAdmin && (file.published || !hasFailedProcessing(file)) && (
          <button
            type="button"
            className="button"
            disabled={publish.isPending}
            onClick={() => publish.mutate({ selection: { kind: 'ids', ids: [file.id] }, published: !file.published })}
          >
            {file.published ? 'Desactivar' : 'Activar'}
          </button>
        )}
        {isAdmin && <ShareLinkDialog target={{ kind: 'files', fileIds: [file.id] }} defaultName={file.name_es} />}
        {isAdmin && canDelete && (
          <ConfirmDialog
            trigger={
              <button type="button" className="button button-danger" disabled={remove.isPending}>
                Borrar
              </button>
            }
            title="Borrar archivo"
            description={trashQuestion(`«${file.name_es}»`)}
            onConfirm={() =>
              remove.mutate(
                { selection: { kind: 'ids', ids: [file.id] } },
                { onSuccess: () => void navigate(paths.files) },
              )
            }
          />
        )}
      </div>
      <FileHistory fileId={file.id} />
      {picture && (
        <Lightbox
          files={[file]}
          index={lightboxOpen ? 0 : null}
          onIndexChange={(index) => setLightboxOpen(index !== null)}
        />
      )}
    </div>
  );
}
