import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { paths } from '../config/paths.ts';
import { deployment, type Deployment } from '../config/deployment.ts';
import { PrivateLayout } from './layout.tsx';
import { RequireAdmin, RequireStaff } from './guards.tsx';
import { enabledAdminSections } from './admin-sections.ts';
import { NotFoundRoute } from './routes/not-found.tsx';
import { publicRoutes } from '../features/sharing/routes.tsx';
import { shareLinkPublicRoutes } from '../features/share-links/routes.tsx';
import { accountPrivateRoutes, accountPublicRoutes } from '../features/account/routes.tsx';
import { FilesScreen } from '../features/files/components/files-screen.tsx';
import { EditTagsScreen } from '../features/files/components/edit-tags-screen.tsx';
import { ScrollRestoration } from './scroll-restoration.tsx';
import { FullScreenSpinner } from '../components/ui/spinner.tsx';

function Root() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

/**
 * Every route of the app for a deployment's feature flags. Admin routes of a disabled feature are not
 * registered at all, so their paths fall through to ERROR.
 */
export function createAppRoutes(features: Deployment['features']): RouteObject[] {
  const adminRoutes = enabledAdminSections(features).flatMap((section) =>
    section.routes.map((route) => ({ element: <RequireAdmin />, children: [route] })),
  );
  return [
    {
      element: <Root />,
      // While the first screen's lazy route loads (a sign-in, an upload or a detail link opened directly).
      HydrateFallback: FullScreenSpinner,
      children: [
        { path: paths.home, element: <Navigate to={paths.files} replace /> },
        // Its own chunk with Auth UI, loaded before the screen shows (see features/auth/components/login-form.tsx).
        { path: paths.login, lazy: async () => ({ Component: (await import('./routes/login.tsx')).LoginRoute }) },
        // Pages behind shared links: no sign-in.
        ...publicRoutes,
        ...shareLinkPublicRoutes,
        // Password reset and invitations: the mail's link signs in on /reset-password (no guard).
        ...accountPublicRoutes,
        {
          path: '/private',
          element: (
            <RequireStaff>
              <PrivateLayout />
            </RequireStaff>
          ),
          children: [
            { index: true, element: <Navigate to={paths.files} replace /> },
            { path: 'files', element: <FilesScreen /> },
            // Uploading (Uppy, tus) and the detail screen (which can replace a file) load on first visit:
            // the files screen, where everyone starts, does not wait for them.
            {
              path: 'upload',
              lazy: async () => ({
                Component: (await import('../features/upload/components/upload-screen.tsx')).UploadScreen,
              }),
            },
            {
              path: 'file/:id',
              lazy: async () => ({
                Component: (await import('../features/files/components/file-detail-screen.tsx')).FileDetailScreen,
              }),
            },
            { path: 'edit-tags-files', element: <EditTagsScreen /> },
            ...accountPrivateRoutes,
            ...adminRoutes,
            { path: '*', element: <NotFoundRoute insideShell /> },
          ],
        },
        { path: '*', element: <NotFoundRoute /> },
      ],
    },
  ];
}

/** History-mode routing for this deployment. */
export const router = createBrowserRouter(createAppRoutes(deployment.features));
