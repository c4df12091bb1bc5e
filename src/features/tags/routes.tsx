import type { RouteObject } from 'react-router-dom';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

/** The Etiquetas section's routes under /private (spec section 2); the app adds the admin guard. */
export const tagsRoutes: RouteObject[] = [{ path: 'tags/*', element: <ComingSoon title="Etiquetas" /> }];
