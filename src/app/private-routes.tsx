import type { RouteObject } from 'react-router-dom';
import type { Deployment } from '../config/deployment.ts';
import { enabledAdminSections } from './admin-sections.ts';
import { NotFoundRoute } from './routes/not-found.tsx';
import { accountPrivateRoutes } from '../features/account/routes.tsx';
import { filesRoutes } from '../features/files/routes.tsx';
import { uploadRoutes } from '../features/upload/routes.tsx';

export { PrivateShell } from './private-shell.tsx';
export { loadFilesScreen } from '../features/files/routes.tsx';

const loadAdminGuard = async () => ({ Component: (await import('./guards.tsx')).RequireAdmin });

/**
 * The screens under /private for a deployment's feature flags. Admin routes of a disabled feature are not
 * registered at all, so their paths fall through to ERROR. This table comes with the private shell's chunk:
 * the router learns it on the first visit to /private (see router.tsx).
 */
export function privateRoutes(features: Deployment['features']): RouteObject[] {
  const adminRoutes = enabledAdminSections(features).flatMap((section) =>
    section.routes.map((route) => ({ lazy: loadAdminGuard, children: [route] })),
  );
  return [
    ...filesRoutes,
    ...uploadRoutes,
    ...accountPrivateRoutes,
    ...adminRoutes,
    { path: '*', element: <NotFoundRoute insideShell /> },
  ];
}
