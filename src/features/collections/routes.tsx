import type { RouteObject } from 'react-router-dom';

/** The Colecciones section's routes under /private; the app adds the admin guard. */
export const collectionsRoutes: RouteObject[] = [
  {
    path: 'collections',
    lazy: async () => ({ Component: (await import('./components/collections-screen.tsx')).CollectionsScreen }),
  },
  {
    path: 'collection/:id',
    lazy: async () => ({ Component: (await import('./components/collection-screen.tsx')).CollectionScreen }),
  },
];
