import '../upload.css';
import { FILE_TOO_LARGE_MESSAGE } from '../../../lib/uploads/file-name.ts';
import { EMPTY_FILE_MESSAGE } from '../../../lib/uploads/upload-errors.ts';
import { useUploadQueue } from '../hooks/use-upload-queue.ts';
import { THUMBNAIL_LIMIT, listHeading } from '../lib/upload-items.ts';
import { DropZone } from './drop-zone.tsx';
import { UploadListItem } from './upload-item.tsx';

/**
 * Upload screen: a drop zone and the list of what is being uploaded, drawn by the app from Uppy's state
 * (Uppy and tus send the files, one at a time, resumable). A file the library already has waits for the
 * person's choice before any of its bytes go; finished uploads leave the list once the batch is over.
 */
export function UploadScreen() {
  const { items, refused, offer, actions } = useUploadQueue();
  return (
    <section className="page upload-page">
      <h1>Subir Archivos</h1>
      <DropZone onFiles={(files) => void offer(files)} compact={items.length > 0} />
      {refused.tooLarge.length > 0 && (
        <p className="form-error" role="alert">
          {FILE_TOO_LARGE_MESSAGE}: {refused.tooLarge.join(', ')}
        </p>
      )}
      {refused.empty.length > 0 && (
        <p className="form-error" role="alert">
          {EMPTY_FILE_MESSAGE}: {refused.empty.join(', ')}
        </p>
      )}
      {items.length > 0 && (
        <section className="upload-list" aria-labelledby="upload-list-title">
          <h2 id="upload-list-title" aria-live="polite">
            {listHeading(items)}
          </h2>
          <ul>
            {items.map((item) => (
              <UploadListItem key={item.key} item={item} thumbnail={items.length < THUMBNAIL_LIMIT} actions={actions} />
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
