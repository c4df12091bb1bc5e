import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { deleteQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { RowMenu } from '../../../components/ui/row-menu.tsx';
import { plural } from '../../../lib/plural.ts';
import { spanishError } from '../../../lib/errors.ts';
import { useTagCategories, useTags } from '../api/use-tag-catalogue.ts';
import { tagFileCountsQueryOptions } from '../api/get-tag-file-counts.ts';
import { useLiveTagFileCounts } from '../api/use-live-tag-file-counts.ts';
import { useDeleteCategory } from '../api/delete-category.ts';
import { useDeleteTag } from '../api/delete-tag.ts';
import { tagPaths } from '../paths.ts';
import '../../../components/ui/admin-form.css';
import '../tags.css';

/** Etiquetas: categories with their tags and how many files carry each tag. */
export function TagsScreen() {
  const categories = useTagCategories();
  const tags = useTags();
  const counts = useQuery(tagFileCountsQueryOptions());
  useLiveTagFileCounts();
  const deleteCategory = useDeleteCategory();
  const deleteTag = useDeleteTag();

  const newCategory = (
    <Link to={tagPaths.newCategory} className="button button-primary">
      Nueva categoría
    </Link>
  );
  const failed = categories.error ?? tags.error;

  return (
    <section className="page">
      <PageHeader title="Etiquetas" actions={newCategory}>
        <p className="muted">Categorías con sus etiquetas. Pulsa el número de archivos para verlos filtrados.</p>
      </PageHeader>
      {failed ? (
        <p className="form-error" role="alert">
          {spanishError(failed)}
        </p>
      ) : !categories.data || !tags.data ? (
        <SkeletonList rows={4} label="Cargando etiquetas…" />
      ) : categories.data.length === 0 ? (
        <EmptyState title="Todavía no hay categorías" action={newCategory}>
          Crea una categoría y añade sus etiquetas para clasificar los archivos.
        </EmptyState>
      ) : (
        <ul className="tag-categories">
          {categories.data.map((category) => {
            const categoryTags = tags.data.filter((tag) => tag.category_id === category.id);
            return (
              <li key={category.id} className="tag-category" aria-labelledby={`category-${category.id}`}>
                <div className="tag-category-header">
                  <div>
                    <h2 id={`category-${category.id}`}>{category.name_es}</h2>
                    <p className="muted tag-category-meta">
                      <span lang="en">{category.name_en}</span>
                      {category.hide_b2c && <span className="tag-badge">Oculta en B2C</span>}
                      {category.hide_b2b && <span className="tag-badge">Oculta en B2B</span>}
                    </p>
                  </div>
                  <div className="tag-category-actions">
                    <Link
                      to={tagPaths.addTag(category.id)}
                      className="button"
                      aria-label={`Añadir etiqueta a ${category.name_es}`}
                    >
                      Añadir etiqueta
                    </Link>
                    <RowMenu
                      name={`la categoría ${category.name_es}`}
                      disabled={deleteCategory.isPending}
                      actions={[
                        { label: 'Editar categoría', to: tagPaths.editCategory(category.id) },
                        {
                          label: 'Borrar categoría',
                          danger: {
                            title: 'Borrar categoría',
                            question: deleteQuestion(
                              `la categoría «${category.name_es}» y ${plural(categoryTags.length, 'etiqueta', 'etiquetas')}`,
                            ),
                            onConfirm: () => deleteCategory.mutate(category.id),
                          },
                        },
                      ]}
                    />
                  </div>
                </div>
                {categoryTags.length === 0 ? (
                  <p className="muted tag-list-empty">Esta categoría no tiene etiquetas.</p>
                ) : (
                  <ul className="tag-list">
                    {categoryTags.map((tag) => {
                      const files = counts.data?.get(tag.id) ?? 0;
                      return (
                        <li key={tag.id} className="tag-row">
                          <span className="tag-name">
                            {tag.name_es}{' '}
                            <span className="muted" lang="en">
                              / {tag.name_en}
                            </span>
                          </span>
                          {counts.data ? (
                            <Link
                              to={tagPaths.filesWithTag(tag.id)}
                              className="tag-count"
                              data-testid={`tag-count-${tag.id}`}
                              aria-label={`${plural(files, 'archivo', 'archivos')} con la etiqueta ${tag.name_es}`}
                            >
                              {plural(files, 'archivo', 'archivos')}
                            </Link>
                          ) : (
                            <span className="tag-count muted">{counts.isError ? 'Sin recuento' : '…'}</span>
                          )}
                          <span className="tag-row-actions">
                            <RowMenu
                              name={tag.name_es}
                              disabled={deleteTag.isPending}
                              actions={[
                                { label: 'Editar', to: tagPaths.editTag(tag.id) },
                                {
                                  label: 'Borrar',
                                  danger: {
                                    title: 'Borrar etiqueta',
                                    question: deleteQuestion(`la etiqueta «${tag.name_es}»`),
                                    onConfirm: () => deleteTag.mutate(tag.id),
                                  },
                                },
                              ]}
                            />
                          </span>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
