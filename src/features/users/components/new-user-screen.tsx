import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { spanishError } from '../../../lib/errors.ts';
import { useCreateStaffUser } from '../api/create-staff-user.ts';
import { messageOf } from '../api/invoke-staff-users.ts';
import { STAFF_ROLES, newUserSchema, roleDescriptions, type NewUserValues } from '../api/staff-user-schema.ts';
import { FormMessage, firstError } from '../../../components/ui/form-message.tsx';
import { userPaths } from '../user-paths.ts';
import '../../../components/ui/admin-form.css';

/** /private/users/new-user, with ?email= prefilling the e-mail (spec section 2). */
export function NewUserScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const create = useCreateStaffUser();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<NewUserValues>({
    resolver: zodResolver(newUserSchema),
    defaultValues: { email: params.get('email') ?? '', password: '', role: '' as NewUserValues['role'] },
  });
  const submit = handleSubmit((values) => create.mutate(values, { onSuccess: () => navigate(userPaths.list) }));
  const message =
    firstError(errors) ??
    (create.error ? messageOf(create.error, spanishError(create.error, 'No se pudo crear el usuario.')) : undefined);

  return (
    <section className="page">
      <Link to={userPaths.list} className="admin-back-link">
        ← Usuarios
      </Link>
      <PageHeader title="Nuevo usuario" />
      <form className="admin-form" onSubmit={submit} noValidate aria-describedby="new-user-message">
        <fieldset disabled={create.isPending} className="admin-form-fields">
          <label htmlFor="new-user-email">Correo electrónico</label>
          <input
            id="new-user-email"
            type="email"
            autoComplete="off"
            aria-invalid={!!errors.email}
            {...register('email')}
          />
          <label htmlFor="new-user-password">Contraseña</label>
          <input
            id="new-user-password"
            type="password"
            autoComplete="new-password"
            aria-invalid={!!errors.password}
            aria-describedby="new-user-password-hint"
            {...register('password')}
          />
          <p id="new-user-password-hint" className="admin-form-hint">
            Apunta la contraseña antes de guardar: después no se podrá volver a ver.
          </p>
          <label htmlFor="new-user-role">Rol</label>
          <select id="new-user-role" aria-invalid={!!errors.role} {...register('role')}>
            <option value="">Elige un rol</option>
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {role} — {roleDescriptions[role]}
              </option>
            ))}
          </select>
        </fieldset>
        <FormMessage id="new-user-message" message={message} />
        <div className="admin-form-actions">
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {create.isPending ? 'Creando…' : 'Crear usuario'}
          </button>
          <Link to={userPaths.list} className="button">
            Cancelar
          </Link>
        </div>
      </form>
    </section>
  );
}
