import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { paths } from '../config/paths.ts';
import { deployment, type Deployment } from '../config/deployment.ts';
import { NotFoundRoute } from './routes/not-found.tsx';
import { publicPageRoutes } from '../features/public-pages/routes.tsx';
import { accountPublicRoutes } from '../features/account/routes.tsx';
import { ScrollRestoration } from './scroll-restoration.tsx';
import { FullScreenSpinner } from '../components/ui/spinner.tsx';

/** The private area: its guard, its top bar and its route table, in one chunk. */
const loadPrivateArea = () => import('./private-routes.tsx');

/**
 * The sign-in screen, in its own chunk with Auth UI. Once it is on screen, the private area and the files
 * grid download while the person types, so signing in does not wait for them. A failed download here is
 * not an error: the router loads them again when they are needed.
 */
async function loadLoginRoute() {
  const { LoginRoute } = await import('./routes/login.tsx');
  void loadPrivateArea()
    .then((area) => area.loadFilesScreen())
    .catch(() => {});
  return { Component: LoginRoute };
}

const PRIVATE_ROUTE_ID = 'private';

function Root() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

/**
 * The routes the app starts with. /private holds only its index here: its screens are added by
 * `addPrivateRoutes` on the first visit, so the initial JavaScript carries no private screen's table.
 */
export function createAppRoutes(): RouteObject[] {
  return [
    {
      element: <Root />,
      // While the first screen's lazy route loads (a sign-in, an upload or a detail link opened directly).
      HydrateFallback: FullScreenSpinner,
      children: [
        { path: paths.home, element: <Navigate to={paths.files} replace /> },
        { path: paths.login, lazy: loadLoginRoute },
        // Pages behind shared links: no sign-in.
        ...publicPageRoutes,
        // Password reset and invitations: the mail's link signs in on /reset-password (no guard).
        ...accountPublicRoutes,
        {
          id: PRIVATE_ROUTE_ID,
          path: '/private',
          lazy: async () => ({ Component: (await loadPrivateArea()).PrivateShell }),
          children: [{ index: true, element: <Navigate to={paths.files} replace /> }],
        },
        { path: '*', element: <NotFoundRoute /> },
      ],
    },
  ];
}

/**
 * React Router asks for more routes when a path matches none, or only a catch-all: a path under /private
 * gets the private area's table for this deployment's feature flags, once.
 */
export function addPrivateRoutes(features: Deployment['features']) {
  let added = false;
  return async ({ path, patch }: { path: string; patch: (routeId: string, children: RouteObject[]) => void }) => {
    if (added || !(path === '/private' || path.startsWith('/private/'))) return;
    const { privateRoutes } = await loadPrivateArea();
    patch(PRIVATE_ROUTE_ID, privateRoutes(features));
    added = true;
  };
}

/** History-mode routing for this deployment. */
export const router = createBrowserRouter(createAppRoutes(), {
  patchRoutesOnNavigation: addPrivateRoutes(deployment.features),
});
