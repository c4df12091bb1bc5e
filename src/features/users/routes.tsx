import type { RouteObject } from 'react-router-dom';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

/** The Usuarios section's routes under /private (spec section 2); the app adds the admin guard. */
export const usersRoutes: RouteObject[] = [{ path: 'users/*', element: <ComingSoon title="Usuarios" /> }];
