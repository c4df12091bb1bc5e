import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ShareLinkDialog } from '../../../components/share-link/share-link-dialog.tsx';
import { SkeletonGrid, SkeletonList } from '../../../components/ui/skeleton.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ConfirmDialog, deleteQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { paths } from '../../../config/paths.ts';
import { plural } from '../../../lib/plural.ts';
import { spanishError } from '../../../lib/errors.ts';
import { collectionQueryOptions } from '../api/get-collection.ts';
import { collectionFilesQueryOptions } from '../api/get-collection-files.ts';
import { useDeleteCollection } from '../api/delete-collection.ts';
import { CollectionNameEditor } from './collection-name-form.tsx';
import { CollectionFileCard } from './collection-file-card.tsx';
import { PublicLink } from './public-link.tsx';
import { PublicToggle } from './public-toggle.tsx';
import '../collections.css';

/** /private/collection/{id}: rename, public toggle and link, its files with Quitar, Borrar. */
export function CollectionScreen() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const collection = useQuery(collectionQueryOptions(id));
  const files = useQuery(collectionFilesQueryOptions(id));
  const remove = useDeleteCollection();

  // While it is being deleted its refetch finds nothing; show loading until the list screen takes over.
  if (collection.isPending || remove.isPending || remove.isSuccess) {
    return (
      <section className="page">
        <SkeletonList rows={3} label="Cargando colección…" />
      </section>
    );
  }
  if (collection.isError || !collection.data) {
    return (
      <section className="page">
        <EmptyState title="Esta colección no existe">
          {collection.isError ? spanishError(collection.error) : 'Puede que se haya borrado.'}
          <p>
            <Link to={paths.collections}>Volver a Colecciones</Link>
          </p>
        </EmptyState>
      </section>
    );
  }

  const data = collection.data;
  return (
    <section className="page collection-page">
      <p className="collection-back">
        <Link to={paths.collections}>← Colecciones</Link>
      </p>
      <PageHeader
        title={data.name}
        actions={
          <>
            <ShareLinkDialog target={{ kind: 'collection', collectionId: data.id }} defaultName={data.name} />
            <ConfirmDialog
              trigger={
                <button type="button" className="button button-danger" disabled={remove.isPending}>
                  Borrar colección
                </button>
              }
              title="Borrar colección"
              description={deleteQuestion(`la colección «${data.name}»`)}
              onConfirm={() => remove.mutate(data.id, { onSuccess: () => void navigate(paths.collections) })}
            />
          </>
        }
      >
        <p className="muted">{plural(data.file_count, 'archivo', 'archivos')}</p>
      </PageHeader>

      <div className="collection-settings">
        <CollectionNameEditor key={data.name} id={data.id} name={data.name} />
        <div className="collection-sharing">
          <PublicToggle id={data.id} isPublic={data.is_public} inputId="collection-public" />
          <PublicLink id={data.id} isPublic={data.is_public} name={data.name} />
        </div>
      </div>

      <div className="collection-files-header">
        <h2>Archivos</h2>
        <Link className="button button-small" to={`${paths.files}?collection=${data.id}`}>
          Ver en Archivos (filtrar por esta colección)
        </Link>
      </div>
      {files.isPending ? (
        <SkeletonGrid count={6} label="Cargando archivos…" />
      ) : files.isError ? (
        <p className="form-error" role="alert">
          {spanishError(files.error)}
        </p>
      ) : files.data.length === 0 ? (
        <EmptyState title="Esta colección no tiene archivos">
          Añádelos desde <Link to={paths.files}>Archivos</Link>: selecciónalos y usa «Añadir a colección…».
        </EmptyState>
      ) : (
        <ul className="collection-files" aria-label="Archivos de la colección">
          {files.data.map((file) => (
            <CollectionFileCard key={file.id} collectionId={data.id} file={file} />
          ))}
        </ul>
      )}
    </section>
  );
}
