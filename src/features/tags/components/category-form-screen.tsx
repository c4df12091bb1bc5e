import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { categorySchema, type CategoryValues } from '../api/tag-schemas.ts';
import { useSaveCategory } from '../api/save-category.ts';
import { useTagCategories } from '../api/use-tag-catalogue.ts';
import { CheckboxField, FormActions, TextField } from '../../../components/ui/form-fields.tsx';
import { FormMessage } from '../../../components/ui/form-message.tsx';
import { useMutationForm } from '../../../lib/forms/use-mutation-form.ts';
import { tagPaths } from '../paths.ts';
import '../../../components/ui/admin-form.css';

const EMPTY: CategoryValues = { name_es: '', name_en: '', hide_b2c: false, hide_b2b: false };

/** /private/tags/new-category and /private/tags/edit-category/{categoryId}. */
export function CategoryFormScreen() {
  const { categoryId } = useParams();
  const categories = useTagCategories();
  const category = categoryId ? categories.data?.find((row) => row.id === categoryId) : undefined;
  const title = categoryId ? 'Editar categoría' : 'Nueva categoría';

  if (categoryId && !category) {
    return (
      <section className="page">
        <PageHeader title={title} />
        {categories.isPending ? (
          <SkeletonList rows={3} />
        ) : (
          <p role="alert">
            Esta categoría no existe. <Link to={tagPaths.list}>Volver a Etiquetas</Link>
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
      <PageHeader title={title} />
      <CategoryForm key={categoryId ?? 'new'} id={categoryId} initial={category ?? EMPTY} />
    </section>
  );
}

function CategoryForm({ id, initial }: { id?: string; initial: CategoryValues }) {
  const navigate = useNavigate();
  const save = useSaveCategory(id);
  const {
    form: {
      register,
      formState: { errors },
    },
    submit,
    message,
  } = useMutationForm({
    schema: categorySchema,
    defaultValues: {
      name_es: initial.name_es,
      name_en: initial.name_en,
      hide_b2c: initial.hide_b2c,
      hide_b2b: initial.hide_b2b,
    },
    mutation: save,
    variables: (values) => values,
    onSuccess: () => navigate(tagPaths.list),
  });

  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-describedby="category-form-message">
      <TextField id="category-name-es" label="Nombre (español)" invalid={!!errors.name_es} {...register('name_es')} />
      <TextField
        id="category-name-en"
        label="Nombre (inglés)"
        lang="en"
        invalid={!!errors.name_en}
        {...register('name_en')}
      />
      <CheckboxField label="Ocultar en B2C" {...register('hide_b2c')} />
      <CheckboxField label="Ocultar en B2B" {...register('hide_b2b')} />
      <FormMessage id="category-form-message" message={message} />
      <FormActions pending={save.isPending} cancelTo={tagPaths.list} />
    </form>
  );
}
