import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { deleteQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { RowMenu } from '../../../components/ui/row-menu.tsx';
import { paths } from '../../../config/paths.ts';
import { plural } from '../../../lib/plural.ts';
import { spanishError } from '../../../lib/errors.ts';
import { collectionListQueryOptions, type CollectionSummary } from '../api/get-collections.ts';
import { useDeleteCollection } from '../api/delete-collection.ts';
import { CreateCollectionForm } from './create-collection-form.tsx';
import { PublicLink } from './public-link.tsx';
import { PublicToggle } from './public-toggle.tsx';
import '../collections.css';

/** /private/collections: create by name; each row with its count, link, public flag, Borrar. */
export function CollectionsScreen() {
  const collections = useQuery(collectionListQueryOptions());
  const [search, setSearch] = useState('');
  const wanted = useDeferredValue(search.trim().toLocaleLowerCase('es'));
  const shown = collections.data?.filter((collection) => collection.name.toLocaleLowerCase('es').includes(wanted));
  return (
    <section className="page collections-page">
      <PageHeader title="Colecciones">
        <p className="muted">Agrupa archivos y comparte una colección pública con un enlace.</p>
      </PageHeader>
      <CreateCollectionForm />
      {collections.isPending ? (
        <SkeletonList rows={4} label="Cargando colecciones…" />
      ) : collections.isError ? (
        <p className="form-error" role="alert">
          {spanishError(collections.error)}
        </p>
      ) : collections.data.length === 0 ? (
        <EmptyState title="Todavía no hay colecciones">
          Crea una con su nombre; después añade archivos desde Archivos con «Añadir a colección…».
        </EmptyState>
      ) : (
        <>
          <div className="list-search" role="search">
            <label htmlFor="collections-search" className="visually-hidden">
              Buscar colección
            </label>
            <input
              id="collections-search"
              type="search"
              placeholder="Buscar colección…"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          {shown?.length === 0 ? (
            <p className="muted">Ninguna colección coincide con «{search.trim()}».</p>
          ) : (
            <ul className="collection-list" aria-label="Colecciones">
              {shown?.map((collection) => (
                <CollectionRow key={collection.id} collection={collection} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function CollectionRow({ collection }: { collection: CollectionSummary }) {
  const remove = useDeleteCollection();
  return (
    <li className="collection-row" aria-label={collection.name}>
      <div className="collection-row-main">
        <Link to={paths.collection(collection.id)} className="collection-row-name">
          {collection.name}
        </Link>
        <span className="muted">{plural(collection.file_count, 'archivo', 'archivos')}</span>
      </div>
      <PublicLink id={collection.id} isPublic={collection.is_public} name={collection.name} />
      <div className="collection-row-actions">
        <PublicToggle id={collection.id} isPublic={collection.is_public} inputId={`public-${collection.id}`} />
        <RowMenu
          name={collection.name}
          disabled={remove.isPending}
          actions={[
            { label: 'Abrir', to: paths.collection(collection.id) },
            {
              label: 'Borrar',
              danger: {
                title: 'Borrar colección',
                question: deleteQuestion(`la colección «${collection.name}»`),
                onConfirm: () => remove.mutate(collection.id),
              },
            },
          ]}
        />
      </div>
    </li>
  );
}
