import type { RouteObject } from 'react-router-dom';

/** Public pages behind shared links (/file/{id}, /collection/{id}), open without signing in. */
export const publicRoutes: RouteObject[] = [
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
];
