import type { RouteObject } from 'react-router-dom';

/** The Operaciones section's routes under /private; the app adds the admin guard. */
export const operationsRoutes: RouteObject[] = [
  {
    path: 'operations',
    lazy: async () => ({ Component: (await import('./components/operations-screen.tsx')).OperationsScreen }),
  },
];
