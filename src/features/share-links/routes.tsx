import type { RouteObject } from 'react-router-dom';

/** The Enlaces section's route under /private; the app adds the admin guard. */
export const shareLinksRoutes: RouteObject[] = [
  {
    path: 'links',
    lazy: async () => ({ Component: (await import('./components/links-screen.tsx')).LinksScreen }),
  },
];

/** {site}/s/{token}: the page behind a shared link, open without signing in. */
export const shareLinkPublicRoutes: RouteObject[] = [
  {
    path: '/s/:token',
    lazy: async () => ({ Component: (await import('./components/share-page.tsx')).SharePage }),
  },
];
