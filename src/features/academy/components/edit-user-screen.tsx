import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { userQueryOptions } from '../api/get-user.ts';
import { categoriesQueryOptions, type AcademyCategory } from '../api/get-categories.ts';
import { useSetUserAccess } from '../api/set-user-access.ts';
import { userAccessSchema } from '../lib/schemas.ts';
import { academyPaths } from '../paths.ts';
import { LockIcon } from './lock-icon.tsx';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

/** /private/academy/edit-user/{userId}: the member's details and their private-category access. */
export function EditUserScreen() {
  const { userId = '' } = useParams();
  const user = useQuery(userQueryOptions(userId));
  const categories = useQuery(categoriesQueryOptions());

  if (user.isPending || categories.isPending) return <SkeletonList rows={4} label="Cargando usuario…" />;
  if (user.isError || categories.isError)
    return (
      <EmptyState
        title="No se encontró el usuario"
        action={
          <Link className="button" to={academyPaths.users}>
            Volver a los usuarios
          </Link>
        }
      />
    );
  const member = user.data;
  const facts: Array<[string, string]> = [
    ['Nombre', member.name || '—'],
    ['Correo electrónico', member.email],
    ['Empresa', member.company || '—'],
    ['Ciudad', member.city || '—'],
    ['País', member.country || '—'],
    ['Fecha de registro', formatDateTime(member.created_on)],
  ];
  return (
    <>
      <PageHeader title={member.name || member.email} />
      <dl className="academy-facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <AccessForm
        key={member.allowedCategoryIds.join()}
        userId={member.id}
        allowed={member.allowedCategoryIds}
        privateCategories={categories.data.filter((category) => category.is_private)}
      />
    </>
  );
}

interface AccessFormProps {
  userId: string;
  allowed: string[];
  privateCategories: AcademyCategory[];
}

function AccessForm({ userId, allowed, privateCategories }: AccessFormProps) {
  const setAccess = useSetUserAccess(userId);
  const navigate = useNavigate();
  const form = useSchemaForm(userAccessSchema, {
    defaultValues: { categoryIds: allowed.filter((id) => privateCategories.some((c) => c.id === id)) },
  });
  const submit = form.handleSubmit((values) =>
    setAccess.mutate(values.categoryIds, { onSuccess: () => void navigate(academyPaths.users) }),
  );
  return (
    <form className="academy-form" onSubmit={(event) => void submit(event)} noValidate>
      <fieldset className="academy-checkboxes">
        <legend>Acceso a categorías privadas</legend>
        {privateCategories.length === 0 ? (
          <p className="muted">
            No hay categorías privadas: todas las categorías son visibles para todos los usuarios.{' '}
            <Link to={academyPaths.newCategory}>Crear una categoría</Link>
          </p>
        ) : (
          privateCategories.map((category) => (
            <label key={category.id} className="checkbox">
              <input type="checkbox" value={category.id} {...form.register('categoryIds')} />
              {category.name_es}
              <LockIcon />
            </label>
          ))
        )}
      </fieldset>
      <div className="academy-form-actions">
        <button type="submit" className="button button-primary" disabled={setAccess.isPending}>
          {setAccess.isPending ? 'Guardando…' : 'Guardar'}
        </button>
        <Link className="button" to={academyPaths.users}>
          Cancelar
        </Link>
      </div>
    </form>
  );
}
