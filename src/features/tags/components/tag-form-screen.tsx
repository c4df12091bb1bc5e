import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { tagSchema, type TagValues } from '../api/tag-schemas.ts';
import { useSaveTag } from '../api/save-tag.ts';
import { useTagCategories, useTags } from '../api/use-tag-catalogue.ts';
import { FormActions, SelectField, TextField } from '../../../components/ui/form-fields.tsx';
import { FormMessage } from '../../../components/ui/form-message.tsx';
import { tagPaths } from '../paths.ts';
import '../../../components/ui/admin-form.css';
import { useMutationForm } from '../../../lib/forms/use-mutation-form.ts';

/** /private/tags/edit-category/{categoryId}/add-tag and /private/tags/edit-tag/{tagId}. */
export function TagFormScreen() {
  const { categoryId, tagId } = useParams();
  const categories = useTagCategories();
  const tags = useTags();
  const tag = tagId ? tags.data?.find((row) => row.id === tagId) : undefined;
  const category = categories.data?.find((row) => row.id === (tag?.category_id ?? categoryId));
  const title = tagId ? 'Editar etiqueta' : 'Añadir etiqueta';

  if (!categories.data || !tags.data || !category || (tagId && !tag)) {
    const loading = categories.isPending || tags.isPending;
    return (
      <section className="page">
        <PageHeader title={title} />
        {loading ? (
          <SkeletonList rows={3} />
        ) : (
          <p role="alert">
            {tagId ? 'Esta etiqueta no existe.' : 'Esta categoría no existe.'}{' '}
            <Link to={tagPaths.list}>Volver a Etiquetas</Link>
          </p>
        )}
      </section>
    );
  }
  return (
    <section className="page">
      <Link to={tagPaths.list} className="admin-back-link">
        ← Etiquetas
      </Link>
      <PageHeader title={title}>
        <p className="muted">Categoría: {category.name_es}</p>
      </PageHeader>
      <TagForm
        key={tagId ?? categoryId}
        id={tagId}
        initial={tag ?? { name_es: '', name_en: '', category_id: category.id }}
        categories={categories.data}
      />
    </section>
  );
}

function TagForm({
  id,
  initial,
  categories,
}: {
  id?: string;
  initial: TagValues;
  categories: Array<{ id: string; name_es: string }>;
}) {
  const navigate = useNavigate();
  const save = useSaveTag(id);
  const {
    form: {
      register,
      formState: { errors },
    },
    submit,
    message,
  } = useMutationForm({
    schema: tagSchema,
    defaultValues: { name_es: initial.name_es, name_en: initial.name_en, category_id: initial.category_id },
    mutation: save,
    variables: (values) => values,
    onSuccess: () => navigate(tagPaths.list),
  });

  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-describedby="tag-form-message">
      <TextField id="tag-name-es" label="Nombre (español)" invalid={!!errors.name_es} {...register('name_es')} />
      <TextField
        id="tag-name-en"
        label="Nombre (inglés)"
        lang="en"
        invalid={!!errors.name_en}
        {...register('name_en')}
      />
      <SelectField id="tag-category" label="Categoría" invalid={!!errors.category_id} {...register('category_id')}>
        {categories.map((category) => (
          <option key={category.id} value={category.id}>
            {category.name_es}
          </option>
        ))}
      </SelectField>
      <FormMessage id="tag-form-message" message={message} />
      <FormActions pending={save.isPending} cancelTo={tagPaths.list} />
    </form>
  );
}
