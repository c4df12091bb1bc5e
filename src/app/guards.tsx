import { type ReactNode } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { useAuth } from '../lib/auth/auth-provider.tsx';
import { paths } from '../config/paths.ts';
import { EmptyState } from '../components/ui/empty-state.tsx';

/**
 * Admin-only routes. The original signed a non-admin out and sent them to /login?redirect=<admin route>, which
 * trapped an uploader who opened an admin link: every sign-in landed on the same route and was signed out
 * again. Here the uploader stays signed in and is told, in Spanish, that the section is not for them.
 */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const { state } = useAuth();
  if (state.status === 'signedIn' && state.role !== 'ADMIN') {
    return (
      <section className="page">
        <EmptyState
          title="No tienes permiso para ver esta sección."
          action={
            <Link className="button" to={paths.files}>
              Ir a Archivos
            </Link>
          }
        >
          <p>Esta sección es solo para administradores.</p>
        </EmptyState>
      </section>
    );
  }
  return <>{children ?? <Outlet />}</>;
}
