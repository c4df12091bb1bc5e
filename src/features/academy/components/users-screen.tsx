import { useState } from 'react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { plural } from '../../../lib/plural.ts';
import { usersQueryOptions, type AcademyUser } from '../api/search-users.ts';
import { useDebouncedValue } from '../lib/use-debounced-value.ts';
import { academyPaths } from '../paths.ts';
import { useDeleteAcademyUser } from '../api/delete-user.ts';
import { ConfirmDialog, deleteQuestion } from '../../../components/ui/confirm-dialog.tsx';

const FILTER_DELAY_MS = 400;

/** /private/academy/users: members newest first, filtered on the server, Editar and Borrar. */
export function UsersScreen() {
  const [filter, setFilter] = useState('');
  const query = useDebouncedValue(filter.trim(), FILTER_DELAY_MS);
  const users = useInfiniteQuery({ ...usersQueryOptions(query), placeholderData: keepPreviousData });
  const rows = users.data?.pages.flat() ?? [];
  const searching = users.isFetching && !users.isFetchingNextPage;

  return (
    <>
      <PageHeader title="Usuarios">
        <p className="muted">Los usuarios se registran desde la app de la Academy.</p>
      </PageHeader>
      <div className="academy-filter" role="search">
        <label htmlFor="academy-users-filter" className="visually-hidden">
          Filtrar usuarios
        </label>
        <input
          id="academy-users-filter"
          type="search"
          placeholder="Filtrar (nombre, correo, etc)"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
        {searching && <Spinner size="small" label="Buscando…" />}
      </div>
      {users.isPending ? (
        <SkeletonList label="Cargando usuarios…" />
      ) : users.isError ? (
        <p className="form-error" role="alert">
          No se pudieron cargar los usuarios.
        </p>
      ) : rows.length === 0 ? (
        <EmptyState title={query ? 'Ningún usuario coincide con el filtro' : 'Todavía no hay usuarios'}>
          {query ? 'Prueba con otro nombre, correo, empresa, ciudad o país.' : 'Aparecerán al registrarse en la app.'}
        </EmptyState>
      ) : (
        <>
          <p className="muted" role="status">
            {users.hasNextPage
              ? `Mostrando ${plural(rows.length, 'usuario', 'usuarios')}`
              : plural(rows.length, 'usuario', 'usuarios')}
          </p>
          <ul className="academy-list" aria-label="Usuarios">
            {rows.map((user) => (
              <UserRow key={user.id} user={user} />
            ))}
          </ul>
          {users.hasNextPage && (
            <button
              type="button"
              className="button academy-more"
              disabled={users.isFetchingNextPage}
              onClick={() => void users.fetchNextPage()}
            >
              {users.isFetchingNextPage ? 'Cargando…' : 'Mostrar más'}
            </button>
          )}
        </>
      )}
    </>
  );
}

function UserRow({ user }: { user: AcademyUser }) {
  const place = [user.company, user.city, user.country].filter(Boolean).join(' · ');
  const label = user.name || user.email;
  const remove = useDeleteAcademyUser();
  return (
    <li className="academy-item">
      <div className="academy-item-main">
        <span className="academy-item-title">{label}</span>
        <p className="academy-meta">
          <span>{user.email}</span>
          {place && <span>{place}</span>}
          <span>Registro: {formatDateTime(user.created_on)}</span>
        </p>
      </div>
      <div className="academy-actions">
        <Link className="button" to={academyPaths.editUser(user.id)} aria-label={`Editar ${label}`}>
          Editar
        </Link>
        {/* The original's Borrar did nothing; ours deletes the member (with their grants and likes). */}
        <ConfirmDialog
          trigger={
            <button
              type="button"
              className="button button-danger"
              aria-label={`Borrar ${label}`}
              disabled={remove.isPending}
            >
              Borrar
            </button>
          }
          title="Borrar usuario de la Academy"
          description={deleteQuestion(`a ${label} (sus accesos y sus me gusta)`)}
          onConfirm={() => remove.mutate(user.id)}
        />
      </div>
    </li>
  );
}
