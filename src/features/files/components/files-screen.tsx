import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { fileKeys } from '../api/keys.ts';
import { searchFiles, type FileFilters } from '../api/search-files.ts';
import { formatDateTime, formatSize } from '../../../lib/format.ts';
import { paths } from '../../../config/paths.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';

const FIRST_PAGE = 100;
const DEFAULT_SORT = 'uploadedOn_desc';

/** The files screen: the count of filtered files and the first page, kept current by realtime. */
export function FilesScreen() {
  const filters: FileFilters = {};
  const { data, error, isPending } = useQuery({
    queryKey: fileKeys.list(filters, DEFAULT_SORT),
    queryFn: ({ signal }) => searchFiles(filters, DEFAULT_SORT, { limit: FIRST_PAGE, offset: 0 }, signal),
  });
  if (isPending) return <Spinner label="Cargando archivos…" />;
  if (error) return <p role="alert">No se pudieron cargar los archivos.</p>;
  return (
    <section className="page">
      <h1>
        <span data-testid="files-count">{data.total}</span> archivos filtrados
      </h1>
      <ul className="file-grid">
        {data.files.map((file) => (
          <li key={file.id} className="file-card">
            <Link to={paths.file(file.id)}>
              <span className={`file-tile ${file.is_image ? 'file-tile-image' : ''}`} aria-hidden="true">
                {file.processing ? <Spinner size="small" label="Procesando" /> : (file.extension || '?').toUpperCase()}
              </span>
              <span className="file-name">{file.name_es}</span>
            </Link>
            <span className="muted">
              {formatSize(file.size)} · {formatDateTime(file.uploaded_on)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
