import { FormActions, SelectField, TextField } from '../../../components/ui/form-fields.tsx';
import { useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { spanishError } from '../../../lib/errors.ts';
import { useCreateStaffUser } from '../api/create-staff-user.ts';
import { useInviteStaffUser } from '../api/invite-staff-user.ts';
import { messageOf } from '../api/invoke-staff-users.ts';
import { STAFF_ROLES, newUserFormSchema, roleDescriptions, type NewUserFormValues } from '../api/staff-user-schema.ts';
import { FormMessage, firstError } from '../../../components/ui/form-message.tsx';
import { userPaths } from '../paths.ts';
import '../../../components/ui/admin-form.css';
import '../users.css';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

/**
 * /private/users/new-user, with ?email= prefilling the e-mail. By default the person gets an
 * invitation by e-mail and chooses their own password; typing one for them stays possible.
 */
export function NewUserScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const create = useCreateStaffUser();
  const invite = useInviteStaffUser();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useSchemaForm(newUserFormSchema, {
    defaultValues: {
      mode: 'invite',
      email: params.get('email') ?? '',
      password: '',
      role: '' as NewUserFormValues['role'],
    },
  });
  const inviting = useWatch({ control, name: 'mode' }) === 'invite';
  const pending = create.isPending || invite.isPending;
  const done = { onSuccess: () => void navigate(userPaths.list) };
  const submit = handleSubmit(({ mode, email, password, role }) =>
    mode === 'invite' ? invite.mutate({ email, role }, done) : create.mutate({ email, password, role }, done),
  );
  const failure = inviting ? invite.error : create.error;
  const message =
    firstError(errors) ??
    (failure
      ? messageOf(
          failure,
          spanishError(failure, inviting ? 'No se pudo enviar la invitación.' : 'No se pudo crear el usuario.'),
        )
      : undefined);

  return (
    <section className="page">
      <Link to={userPaths.list} className="admin-back-link">
        ← Usuarios
      </Link>
      <PageHeader title="Nuevo usuario" />
      <form className="admin-form" onSubmit={submit} noValidate aria-describedby="new-user-message">
        <fieldset disabled={pending} className="admin-form-fields">
          <TextField
            id="new-user-email"
            label="Correo electrónico"
            type="email"
            autoComplete="off"
            invalid={!!errors.email}
            {...register('email')}
          />
          <fieldset className="new-user-mode">
            <legend>Acceso a la cuenta</legend>
            <label className="new-user-mode-option">
              <input type="radio" value="invite" aria-describedby="new-user-invite-hint" {...register('mode')} />
              Enviar invitación
            </label>
            <p id="new-user-invite-hint" className="admin-form-hint">
              La persona recibe un correo con un enlace y elige su propia contraseña.
            </p>
            <label className="new-user-mode-option">
              <input type="radio" value="password" {...register('mode')} />
              Escribir una contraseña
            </label>
          </fieldset>
          {!inviting && (
            <TextField
              id="new-user-password"
              label="Contraseña"
              type="password"
              autoComplete="new-password"
              invalid={!!errors.password}
              hint="Apunta la contraseña antes de guardar: después no se podrá volver a ver."
              {...register('password')}
            />
          )}
          <SelectField id="new-user-role" label="Rol" invalid={!!errors.role} {...register('role')}>
            <option value="">Elige un rol</option>
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {role} — {roleDescriptions[role]}
              </option>
            ))}
          </SelectField>
        </fieldset>
        <FormMessage id="new-user-message" message={message} />
        <FormActions
          pending={pending}
          submitLabel={inviting ? 'Enviar invitación' : 'Crear usuario'}
          pendingLabel={inviting ? 'Enviando…' : 'Creando…'}
          cancelTo={userPaths.list}
        />
      </form>
    </section>
  );
}
