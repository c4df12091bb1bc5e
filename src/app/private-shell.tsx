import { type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useQueries } from '@tanstack/react-query';
import { useAuth } from '../lib/auth/auth-provider.tsx';
import { catalogueQueries } from '../lib/catalogue/get-catalogue.ts';
import { loginWithRedirect } from '../config/paths.ts';
import { FullScreenSpinner } from '../components/ui/spinner.tsx';
import { useRealtimeCacheSync } from './realtime-sync.ts';
import { PrivateLayout } from './layout.tsx';

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
 * Everything under /private: the staff guard and the top bar. Its own chunk, so the sign-in screen and
 * the public pages do not download it; the sign-in screen fetches it while the person types.
 */
export function PrivateShell() {
  return (
    <RequireStaff>
      <PrivateLayout />
    </RequireStaff>
  );
}
