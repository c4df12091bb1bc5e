import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useQueries } from '@tanstack/react-query';
import { useAuth } from '../lib/auth/auth-provider.tsx';
import { catalogueQueries } from '../lib/catalogue/get-catalogue.ts';
import { loginWithRedirect } from '../config/paths.ts';
import { FullScreenSpinner } from '../components/ui/spinner.tsx';
import { useRealtimeCacheSync } from './realtime-sync.ts';

const targetOf = (location: { pathname: string; search: string }) => `${location.pathname}${location.search}`;

/**
 * Private routes need a signed-in ADMIN or UPLOADER and the initial data (spec section 2): until both are
 * there, a full-screen spinner; without them, /login?redirect=<where they wanted to go>.
 */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { state, recheckRole } = useAuth();
  const location = useLocation();
  const signedIn = state.status === 'signedIn';
  useRealtimeCacheSync(signedIn ? state.session.user.id : null, () => void recheckRole());
  const initial = useQueries({ queries: catalogueQueries.map((q) => ({ ...q, enabled: signedIn })) });
  if (state.status === 'loading') return <FullScreenSpinner />;
  if (state.status === 'signedOut') return <Navigate to={loginWithRedirect(targetOf(location))} replace />;
  if (initial.some((q) => q.isPending)) return <FullScreenSpinner />;
  return <>{children}</>;
}

/**
 * Admin-only routes: anyone else is signed out, as the spec's navigation guard does; once the sign-out lands,
 * RequireStaff sends them to /login?redirect=<this route>.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { state, signOut } = useAuth();
  const refused = state.status === 'signedIn' && state.role !== 'ADMIN';
  useEffect(() => {
    if (refused) void signOut();
  }, [refused, signOut]);
  if (refused) return <FullScreenSpinner />;
  return <>{children}</>;
}
