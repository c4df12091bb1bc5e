import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet } from 'react-router-dom';
import { paths } from '../config/paths.ts';
import { isEnabled, type Feature } from '../config/deployment.ts';
import { PrivateLayout } from './layout.tsx';
import { RequireAdmin, RequireStaff } from './guards.tsx';
import { LoginRoute } from './routes/login.tsx';
import { NotFoundRoute } from './routes/not-found.tsx';
import { ComingSoonRoute } from './routes/placeholder.tsx';
import { FilesScreen } from '../features/files/components/files-screen.tsx';
import { UploadScreen } from '../features/upload/components/upload-screen.tsx';
import { EditTagsScreen } from '../features/files/components/edit-tags-screen.tsx';
import { FileDetailScreen } from '../features/files/components/file-detail-screen.tsx';
import { ScrollRestoration } from './scroll-restoration.tsx';

const admin = (element: ReactNode) => <RequireAdmin>{element}</RequireAdmin>;

/** Admin routes behind a feature flag disappear with it (they fall through to ERROR). */
const adminFeatureRoutes: Array<{ feature: Feature | null; path: string; title: string }> = [
  { feature: null, path: 'tags/*', title: 'Etiquetas' },
  { feature: 'users', path: 'users/*', title: 'Usuarios' },
  { feature: 'collections', path: 'collections', title: 'Colecciones' },
  { feature: 'collections', path: 'collection/:id', title: 'Colección' },
  { feature: 'academy', path: 'academy/*', title: 'Academy' },
  { feature: 'operations', path: 'operations', title: 'Operaciones' },
];

function Root() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

export const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      { path: paths.home, element: <Navigate to={paths.files} replace /> },
      { path: paths.login, element: <LoginRoute /> },
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
          { path: 'upload', element: <UploadScreen /> },
          { path: 'file/:id', element: <FileDetailScreen /> },
          { path: 'edit-tags-files', element: <EditTagsScreen /> },
          ...adminFeatureRoutes
            .filter((route) => route.feature === null || isEnabled(route.feature))
            .map((route) => ({ path: route.path, element: admin(<ComingSoonRoute title={route.title} />) })),
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
]);
