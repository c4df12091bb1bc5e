import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { spanishError } from '../../../lib/errors.ts';
import { useStaffUsers } from '../api/get-staff-users.ts';
import { useUpdateStaffPassword } from '../api/update-staff-password.ts';
import { messageOf } from '../api/invoke-staff-users.ts';
import { passwordSchema } from '../api/staff-user-schema.ts';
import { FormActions, TextField } from '../../../components/ui/form-fields.tsx';
import { FormMessage } from '../../../components/ui/form-message.tsx';
import { userPaths } from '../paths.ts';
import '../../../components/ui/admin-form.css';
import { useMutationForm } from '../../../lib/forms/use-mutation-form.ts';

/** /private/users/update-password/{uid}: sets a new password for a staff account. */
export function UpdatePasswordScreen() {
  const { uid = '' } = useParams();
  const navigate = useNavigate();
  const users = useStaffUsers();
  const email = users.data?.find((user) => user.uid === uid)?.email;
  const update = useUpdateStaffPassword();
  const {
    form: {
      register,
      formState: { errors },
    },
    submit,
    message,
  } = useMutationForm({
    schema: passwordSchema,
    defaultValues: { password: '' },
    mutation: update,
    variables: ({ password }) => ({ uid, password }),
    onSuccess: () => navigate(userPaths.list),
    errorMessage: (error) => messageOf(error, spanishError(error, 'No se pudo cambiar la contraseña.')),
  });

  return (
    <section className="page">
      <Link to={userPaths.list} className="admin-back-link">
        ← Usuarios
      </Link>
      <PageHeader title="Cambiar contraseña">
        <p className="muted" data-testid="password-user">
          {email ?? (users.isPending ? 'Cargando…' : 'Usuario desconocido')}
        </p>
      </PageHeader>
      <form className="admin-form" onSubmit={submit} noValidate aria-describedby="password-message">
        <fieldset disabled={update.isPending} className="admin-form-fields">
          <TextField
            id="new-password"
            label="Nueva contraseña"
            type="password"
            autoComplete="new-password"
            invalid={!!errors.password}
            hint="Al menos 6 caracteres. Después no se podrá volver a ver."
            {...register('password')}
          />
        </fieldset>
        <FormMessage id="password-message" message={message} />
        <FormActions pending={update.isPending} submitLabel="Cambiar contraseña" cancelTo={userPaths.list} />
      </form>
    </section>
  );
}
