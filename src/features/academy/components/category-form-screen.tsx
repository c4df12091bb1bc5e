import { CheckboxField, TextField } from '../../../components/ui/form-fields.tsx';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { categoriesQueryOptions } from '../api/get-categories.ts';
import { useCreateCategory, useUpdateCategory } from '../api/save-category.ts';
import { categorySchema, type CategoryForm } from '../lib/schemas.ts';
import { academyPaths } from '../paths.ts';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

/** /private/academy/new-category. */
export function NewCategoryScreen() {
  const createCategory = useCreateCategory();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Nueva categoría" />
      <CategoryFormFields
        defaultValues={{ nameEs: '', nameEn: '', isPrivate: false }}
        pending={createCategory.isPending}
        submitLabel="Crear categoría"
        onSubmit={(fields) =>
          createCategory.mutate(fields, { onSuccess: () => void navigate(academyPaths.categories) })
        }
      />
    </>
  );
}

/** /private/academy/edit-category/{categoryId}. */
export function EditCategoryScreen() {
  const { categoryId = '' } = useParams();
  const categories = useQuery(categoriesQueryOptions());
  const updateCategory = useUpdateCategory(categoryId);
  const navigate = useNavigate();
  const category = categories.data?.find((candidate) => candidate.id === categoryId);

  if (categories.isPending) return <SkeletonList rows={3} label="Cargando categoría…" />;
  if (!category)
    return (
      <EmptyState
        title="No se encontró la categoría"
        action={
          <Link className="button" to={academyPaths.categories}>
            Volver a las categorías
          </Link>
        }
      />
    );
  return (
    <>
      <PageHeader title="Editar categoría" />
      <CategoryFormFields
        key={category.id}
        defaultValues={{ nameEs: category.name_es, nameEn: category.name_en, isPrivate: category.is_private }}
        pending={updateCategory.isPending}
        submitLabel="Guardar"
        onSubmit={(fields) =>
          updateCategory.mutate(fields, { onSuccess: () => void navigate(academyPaths.categories) })
        }
      />
    </>
  );
}

interface CategoryFormFieldsProps {
  defaultValues: CategoryForm;
  onSubmit: (values: CategoryForm) => void;
  pending: boolean;
  submitLabel: string;
}

function CategoryFormFields({ defaultValues, onSubmit, pending, submitLabel }: CategoryFormFieldsProps) {
  const form = useSchemaForm(categorySchema, { defaultValues });
  const { errors } = form.formState;
  // One message for the form, as the product words it: 'Todos los campos son obligatorios'.
  const error = errors.nameEs?.message ?? errors.nameEn?.message;
  return (
    <form className="academy-form" onSubmit={(event) => void form.handleSubmit(onSubmit)(event)} noValidate>
      <TextField
        id="category-name-es"
        label="Nombre (español)"
        invalid={errors.nameEs ? true : undefined}
        {...form.register('nameEs')}
      />
      <TextField
        id="category-name-en"
        label="Nombre (inglés)"
        invalid={errors.nameEn ? true : undefined}
        {...form.register('nameEn')}
      />
      <CheckboxField label="Categoría privada (solo la ven los usuarios con acceso)" {...form.register('isPrivate')} />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="academy-form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Guardando…' : submitLabel}
        </button>
        <Link className="button" to={academyPaths.categories}>
          Cancelar
        </Link>
      </div>
    </form>
  );
}
