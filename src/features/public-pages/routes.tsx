import type { RouteObject } from 'react-router-dom';

/**
 * The pages for visitors without an account, open without signing in: a published file (/file/{id}), a
 * public collection (/collection/{id}) and the files an admin shared by link ({site}/s/{token}).
 */
export const publicPageRoutes: RouteObject[] = [
  {
    path: '/file/:id',
    lazy: async () => ({ Component: (await import('./components/public-file-screen.tsx')).PublicFileScreen }),
  },
  {
    path: '/collection/:id',
    lazy: async () => ({
      Component: (await import('./components/public-collection-screen.tsx')).PublicCollectionScreen,
    }),
  },
  {
    path: '/s/:token',
    lazy: async () => ({ Component: (await import('./components/share-link-screen.tsx')).ShareLinkScreen }),
  },
];
