import type { RouteObject } from 'react-router-dom';

/** The Papelera's route under /private; the app adds the admin guard and the menu entry. */
export const trashRoutes: RouteObject[] = [
  {
    path: 'trash',
    lazy: async () => ({ Component: (await import('./components/trash-screen.tsx')).TrashScreen }),
  },
];
