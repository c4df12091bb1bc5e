import '../files.css';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { fileDetailQuery } from '../api/get-file-detail.ts';
import { FileSummary } from './file-summary.tsx';
import { FileEditForm } from './file-edit-form.tsx';
import { paths } from '../../../config/paths.ts';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';

/**
 * File detail and edit: the file on the left (preview, facts, actions), its
 * texts and tags on the right with a sticky Guardar; one column on a phone.
 */
export function FileDetailScreen() {
  const { id = '' } = useParams();
  const file = useQuery(fileDetailQuery(id));

  if (file.isPending) return <SkeletonList rows={6} label="Cargando archivo…" />;
  if (file.isError) {
    return (
      <section className="page">
        <EmptyState
          title="No se encontró el archivo"
          action={
            <Link className="button" to={paths.files}>
              Volver a los archivos
            </Link>
          }
        >
          <p>Puede que se haya borrado o que no tengas acceso a él.</p>
        </EmptyState>
      </section>
    );
  }
  const data = file.data;
  return (
    <section className="page file-detail">
      <Link className="file-back-link" to={paths.files}>
        <span aria-hidden="true">←</span> Archivos
      </Link>
      <h1>{data.name_es}</h1>
      <div className="file-detail-layout">
        <FileSummary file={data} />
        <FileEditForm key={data.id} file={data} />
      </div>
    </section>
  );
}
