import type { RouteObject } from 'react-router-dom';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

/** The Operaciones section's routes under /private (spec section 2); the app adds the admin guard. */
export const operationsRoutes: RouteObject[] = [{ path: 'operations', element: <ComingSoon title="Operaciones" /> }];
