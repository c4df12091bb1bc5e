import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import '../upload.css';
import { useRef } from 'react';
import { FILE_TOO_LARGE_MESSAGE } from '../../../lib/uploads/file-name.ts';
import { EMPTY_FILE_MESSAGE } from '../../../lib/uploads/upload-errors.ts';
import { useUploadDashboard } from '../hooks/use-upload-dashboard.ts';
import { AlreadyInLibrary } from './already-in-library.tsx';

/**
 * Upload screen: Uppy's Dashboard sends files one at a time through TUS to
 * Storage, resuming after a dropped connection and, after a reload, when the same file is offered again
 * (tus fingerprints). Uppy's stylesheets are imported here only, so they load with this lazy screen.
 */
export function UploadScreen() {
  const dashboard = useRef<HTMLDivElement>(null);
  const { refused, empty, rejected, recorded } = useUploadDashboard(dashboard);
  return (
    <section className="page upload-page">
      <h1>Subir Archivos</h1>
      {refused.length > 0 && (
        <p className="form-error" role="alert">
          {FILE_TOO_LARGE_MESSAGE}: {refused.join(', ')}
        </p>
      )}
      {empty.length > 0 && (
        <p className="form-error" role="alert">
          {EMPTY_FILE_MESSAGE}: {empty.join(', ')}
        </p>
      )}
      {rejected.length > 0 && (
        <ul className="form-error upload-rejected" role="alert">
          {rejected.map((upload, index) => (
            <li key={`${upload.name}-${index}`}>
              «{upload.name}» no se pudo subir: {upload.reason}
            </li>
          ))}
        </ul>
      )}
      <div ref={dashboard} className="upload-dashboard" />
      <AlreadyInLibrary uploads={recorded} />
    </section>
  );
}
