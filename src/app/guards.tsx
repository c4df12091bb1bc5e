import { type ReactNode } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router-dom';
import { useQueries } from '@tanstack/react-query';
import { useAuth } from '../lib/auth/auth-provider.tsx';
import { catalogueQueries } from '../lib/catalogue/get-catalogue.ts';
import { loginWithRedirect, paths } from '../config/paths.ts';
import { EmptyState } from '../components/ui/empty-state.tsx';
import { FullScreenSpinner } from '../components/ui/spinner.tsx';
import { useRealtimeCacheSync } from './realtime-sync.ts';

const targetOf = (location: { pathname: string; search: string }) => `${location.pathname}${location.search}`;

/**
 * Private routes need a signed-in ADMIN or UPLOADER and the initial data: until both are
 * there, a full-screen spinner; without them, /login?redirect=<where they wanted to go>.
 */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { state, recheckRole } = useAuth();
  const location = useLocation();
  const signedIn = state.status === 'signedIn';
  useRealtimeCacheSync(signedIn ? state.session.user.id : null, () => void recheckRole());
  const initial = useQueries({ queries: catalogueQueries.map((q) => ({ ...q, enabled: signedIn })) });
  if (state.status === 'loading') return <FullScreenSpinner />;
  // An account that still owes its authenticator code finishes signing in on /login.
  if (state.status === 'signedOut' || state.status === 'needsCode') {
    return <Navigate to={loginWithRedirect(targetOf(location))} replace />;
  }
  if (initial.some((q) => q.isPending)) return <FullScreenSpinner />;
  return <>{children}</>;
}

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
