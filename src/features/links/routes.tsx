import type { RouteObject } from 'react-router-dom';

/** The Enlaces section's route under /private; the app adds the admin guard. */
export const linksRoutes: RouteObject[] = [
  {
    path: 'links',
    lazy: async () => ({ Component: (await import('./components/links-screen.tsx')).LinksScreen }),
  },
];
