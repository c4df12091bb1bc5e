import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { ConfirmDialog, deleteQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { plural } from '../../../lib/plural.ts';
import { categoriesQueryOptions, type AcademyCategory } from '../api/get-categories.ts';
import { useDeleteCategory } from '../api/delete-category.ts';
import { academyPaths } from '../paths.ts';
import { LockIcon } from './lock-icon.tsx';

/** /private/academy/categories: sorted by nameEs, a lock on private ones, Editar, Borrar, 'Nueva categoria'. */
export function CategoriesScreen() {
  const categories = useQuery(categoriesQueryOptions());
  const newCategory = (
    <Link className="button button-primary" to={academyPaths.newCategory}>
      Nueva categoría
    </Link>
  );
  return (
    <>
      <PageHeader title="Categorías" actions={newCategory}>
        {categories.data && <p className="muted">{plural(categories.data.length, 'categoría', 'categorías')}</p>}
      </PageHeader>
      {categories.isPending ? (
        <SkeletonList label="Cargando categorías…" />
      ) : categories.isError ? (
        <p className="form-error" role="alert">
          No se pudieron cargar las categorías.
        </p>
      ) : categories.data.length === 0 ? (
        <EmptyState title="Todavía no hay categorías" action={newCategory}>
          Las categorías agrupan los videos; las privadas solo las ven los usuarios con acceso.
        </EmptyState>
      ) : (
        <ul className="academy-list" aria-label="Categorías">
          {categories.data.map((category) => (
            <CategoryRow key={category.id} category={category} />
          ))}
        </ul>
      )}
    </>
  );
}

function CategoryRow({ category }: { category: AcademyCategory }) {
  const deleteCategory = useDeleteCategory();
  return (
    <li className="academy-item">
      <div className="academy-item-main">
        <span className="academy-item-title">
          <span className="academy-category-name">{category.name_es}</span>
          {category.is_private && <LockIcon />}
        </span>
        <p className="academy-meta">
          <span lang="en">{category.name_en}</span>
        </p>
      </div>
      <div className="academy-actions">
        <Link className="button" to={academyPaths.editCategory(category.id)} aria-label={`Editar ${category.name_es}`}>
          Editar
        </Link>
        <ConfirmDialog
          title="Borrar categoría"
          description={deleteQuestion(`la categoría «${category.name_es}» (se quitará de sus vídeos)`)}
          onConfirm={() => deleteCategory.mutate(category.id)}
          trigger={
            <button
              type="button"
              className="button button-danger"
              aria-label={`Borrar ${category.name_es}`}
              disabled={deleteCategory.isPending}
            >
              Borrar
            </button>
          }
        />
      </div>
    </li>
  );
}
