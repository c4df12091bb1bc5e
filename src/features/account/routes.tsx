import type { RouteObject } from 'react-router-dom';
import { accountPaths } from './paths.ts';

/** Public (no sign-in) steps of a password reset and of accepting an invitation. */
export const accountPublicRoutes: RouteObject[] = [
  {
    path: accountPaths.forgotPassword,
    lazy: async () => ({
      Component: (await import('./components/forgot-password-screen.tsx')).ForgotPasswordScreen,
    }),
  },
  {
    path: accountPaths.resetPassword,
    lazy: async () => ({
      Component: (await import('./components/reset-password-screen.tsx')).ResetPasswordScreen,
    }),
  },
];

/** 'Mi cuenta', inside the shell, for every signed-in staff member (not an admin section). */
export const accountPrivateRoutes: RouteObject[] = [
  {
    path: 'account',
    lazy: async () => ({ Component: (await import('./components/account-screen.tsx')).AccountScreen }),
  },
];
