import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { useRecordedFiles } from '../api/get-recorded-files.ts';
import { useLiveRecordedFiles } from '../api/use-live-recorded-files.ts';
import type { RecordedUpload } from '../hooks/use-upload-dashboard.ts';

/**
 * Uploads whose bytes another file of the library already has. Nothing is refused: once the
 * server has processed the new file, the list says 'Ya existe' and links to the earlier file.
 */
export function AlreadyInLibrary({ uploads }: { uploads: RecordedUpload[] }) {
  const ids = uploads.map((upload) => upload.fileId);
  useLiveRecordedFiles(ids.length > 0);
  const { data } = useRecordedFiles(ids);
  const originals = new Map(
    (data ?? []).flatMap((file) => (file.duplicate_of ? [[file.id, file.duplicate_of] as const] : [])),
  );
  const duplicates = uploads.filter((upload) => originals.has(upload.fileId));
  if (duplicates.length === 0) return null;
  return (
    <section className="upload-duplicates" aria-labelledby="upload-duplicates-title">
      <h2 id="upload-duplicates-title">Archivos repetidos</h2>
      <ul>
        {duplicates.map((upload) => (
          <li key={upload.uppyId}>
            <span className="upload-duplicate-name">{upload.name}</span>{' '}
            <span className="upload-duplicate-badge">Ya existe</span>{' '}
            <Link to={paths.file(originals.get(upload.fileId)!)}>Ver el archivo existente</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
