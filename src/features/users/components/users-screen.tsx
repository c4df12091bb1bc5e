import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { deleteQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { RowMenu } from '../../../components/ui/row-menu.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { spanishError } from '../../../lib/errors.ts';
import { plural } from '../../../lib/plural.ts';
import { useStaffUsers, type StaffUser } from '../api/get-staff-users.ts';
import { useDeleteStaffUser } from '../api/delete-staff-user.ts';
import { useUpdateStaffRole } from '../api/update-staff-role.ts';
import { useLiveStaffUsers } from '../api/use-live-staff-users.ts';
import { messageOf } from '../api/invoke-staff-users.ts';
import { STAFF_ROLES, roleDescriptions, type StaffRole } from '../api/staff-user-schema.ts';
import { userPaths } from '../paths.ts';
import '../../../components/ui/admin-form.css';
import '../users.css';

/** Usuarios: staff accounts by e-mail with their role, a search, each row's actions in a menu. */
export function UsersScreen() {
  const users = useStaffUsers();
  useLiveStaffUsers();
  const [search, setSearch] = useState('');
  const wanted = useDeferredValue(search.trim().toLowerCase());
  const shown = users.data?.filter(
    (user) => user.email.toLowerCase().includes(wanted) || user.role?.toLowerCase() === wanted,
  );
  const newUser = (
    <Link to={userPaths.newUser} className="button button-primary">
      Nuevo usuario
    </Link>
  );
  return (
    <section className="page">
      <PageHeader title="Usuarios" actions={newUser}>
        <p className="muted">
          {users.data ? plural(users.data.length, 'cuenta', 'cuentas') : 'Cuentas'} del personal. Solo ADMIN y UPLOADER
          pueden entrar en esta web.
        </p>
      </PageHeader>
      {users.error ? (
        <LoadError
          what="los usuarios"
          detail={messageOf(users.error, spanishError(users.error))}
          onRetry={() => void users.refetch()}
          retrying={users.isFetching}
        />
      ) : !users.data ? (
        <SkeletonList rows={5} label="Cargando usuarios…" />
      ) : users.data.length === 0 ? (
        <EmptyState title="Todavía no hay usuarios" action={newUser} />
      ) : (
        <>
          <div className="list-search" role="search">
            <label htmlFor="users-search" className="visually-hidden">
              Buscar usuario
            </label>
            <input
              id="users-search"
              type="search"
              placeholder="Buscar por correo o rol…"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          {shown && shown.length === 0 ? (
            <p className="muted">Ningún usuario coincide con «{search.trim()}».</p>
          ) : (
            <ul className="user-list" aria-label="Usuarios">
              {shown?.map((user) => (
                <UserRow key={user.uid} user={user} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function UserRow({ user }: { user: StaffUser }) {
  const { state } = useAuth();
  const isSelf = state.status === 'signedIn' && state.session.user.id === user.uid;
  const updateRole = useUpdateStaffRole();
  const deleteUser = useDeleteStaffUser();
  const roleId = `role-${user.uid}`;
  return (
    <li className="user-row" data-testid={`user-${user.email}`}>
      <span className="user-email">
        <EmailText email={user.email} />
        {isSelf && <span className="muted"> (tú)</span>}
      </span>
      <span className="user-role">
        <label htmlFor={roleId} className="visually-hidden">
          Rol de {user.email}
        </label>
        <select
          id={roleId}
          value={user.role ?? ''}
          disabled={isSelf || updateRole.isPending}
          aria-describedby={isSelf ? 'own-account-note' : undefined}
          onChange={(event) => updateRole.mutate({ uid: user.uid, role: event.target.value as StaffRole })}
        >
          {user.role === null && <option value="">Sin rol</option>}
          {STAFF_ROLES.map((role) => (
            <option key={role} value={role} title={roleDescriptions[role]}>
              {role}
            </option>
          ))}
        </select>
      </span>
      <span className="user-actions">
        <RowMenu
          name={user.email}
          disabled={deleteUser.isPending}
          actions={[
            { label: 'Cambiar contraseña', to: userPaths.updatePassword(user.uid) },
            ...(isSelf
              ? []
              : [
                  {
                    label: 'Borrar',
                    danger: {
                      title: 'Borrar usuario',
                      question: deleteQuestion(`el usuario ${user.email}`),
                      onConfirm: () => deleteUser.mutate({ uid: user.uid, email: user.email }),
                    },
                  },
                ]),
          ]}
        />
      </span>
      {isSelf && (
        <span id="own-account-note" className="muted user-self-note">
          No puedes borrar ni cambiar el rol de tu propio usuario.
        </span>
      )}
    </li>
  );
}

/** An e-mail that may break before its '@' on a narrow screen rather than in the middle of a word. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
