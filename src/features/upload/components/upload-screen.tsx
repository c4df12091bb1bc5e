import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import '../upload.css';
import { useRef } from 'react';
import { FILE_TOO_LARGE_MESSAGE } from '../../../lib/uploads/file-name.ts';
import { useUploadDashboard } from '../hooks/use-upload-dashboard.ts';
import { AlreadyInLibrary } from './already-in-library.tsx';

/**
 * Upload screen: Uppy's Dashboard sends files one at a time through TUS to
 * Storage, resuming after a dropped connection and, after a reload, when the same file is offered again
 * (tus fingerprints). Uppy's stylesheets are imported here only, so they load with this lazy screen.
 */
export function UploadScreen() {
  const dashboard = useRef<HTMLDivElement>(null);
  const { refused, recorded } = useUploadDashboard(dashboard);
  return (
    <section className="page upload-page">
      <h1>Subir Archivos</h1>
      {refused.length > 0 && (
        <p className="form-error" role="alert">
          {FILE_TOO_LARGE_MESSAGE}: {refused.join(', ')}
        </p>
      )}
      <div ref={dashboard} className="upload-dashboard" />
      <AlreadyInLibrary uploads={recorded} />
    </section>
  );
}
