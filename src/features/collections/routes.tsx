import type { RouteObject } from 'react-router-dom';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

/** The Colecciones section's routes under /private (spec section 2); the app adds the admin guard. */
export const collectionsRoutes: RouteObject[] = [
  { path: 'collections', element: <ComingSoon title="Colecciones" /> },
  { path: 'collection/:id', element: <ComingSoon title="Colecciones" /> },
];
