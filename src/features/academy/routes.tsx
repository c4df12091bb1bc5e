import type { RouteObject } from 'react-router-dom';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

/** The Academy section's routes under /private (spec section 2); the app adds the admin guard. */
export const academyRoutes: RouteObject[] = [{ path: 'academy/*', element: <ComingSoon title="Academy" /> }];
