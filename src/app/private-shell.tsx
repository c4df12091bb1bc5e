import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation, useMatches } from 'react-router-dom';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../lib/auth/auth-provider.tsx';
import { catalogueQueries } from '../lib/catalogue/get-catalogue.ts';
import { routeHandle } from '../lib/route-handle.ts';
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
  useFirstScreenPrefetch(signedIn ? state.session.user.id : null);
  if (state.status === 'loading') return <FullScreenSpinner />;
  // An account that still owes its authenticator code finishes signing in on /login.
  if (state.status === 'signedOut' || state.status === 'needsCode') {
    return <Navigate to={loginWithRedirect(targetOf(location))} replace />;
  }
  if (initial.some((q) => q.isPending)) return <FullScreenSpinner />;
  return <>{children}</>;
}

/**
 * The screen being opened starts its own first data once per signed-in person, beside the catalogue, rather
 * than after it (the guard renders the screen only once the catalogue is there).
 */
function useFirstScreenPrefetch(userId: string | null) {
  const queryClient = useQueryClient();
  const matches = useMatches();
  const { search } = useLocation();
  const prefetchedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!userId || prefetchedFor.current === userId) return;
    prefetchedFor.current = userId;
    for (const match of matches) routeHandle(match)?.prefetch?.(queryClient, search);
  }, [userId, matches, queryClient, search]);
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
