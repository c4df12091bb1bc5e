import type { RouteObject } from 'react-router-dom';

/** The Usuarios section's routes under /private; the app adds the admin guard. */
export const usersRoutes: RouteObject[] = [
  { path: 'users', lazy: async () => ({ Component: (await import('./components/users-screen.tsx')).UsersScreen }) },
  {
    path: 'users/new-user',
    lazy: async () => ({ Component: (await import('./components/new-user-screen.tsx')).NewUserScreen }),
  },
  {
    path: 'users/update-password/:uid',
    lazy: async () => ({
      Component: (await import('./components/update-password-screen.tsx')).UpdatePasswordScreen,
    }),
  },
];
