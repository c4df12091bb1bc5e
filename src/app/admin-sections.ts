import type { Deployment, Feature } from '../config/deployment.ts';
import type { RouteObject } from 'react-router-dom';
import { paths } from '../config/paths.ts';
import { tagsRoutes } from '../features/tags/routes.tsx';
import { usersRoutes } from '../features/users/routes.tsx';
import { collectionsRoutes } from '../features/collections/routes.tsx';
import { academyRoutes } from '../features/academy/routes.tsx';
import { operationsRoutes } from '../features/operations/routes.tsx';
import { trashRoutes } from '../features/trash/routes.tsx';
import { linksRoutes } from '../features/links/routes.tsx';

export interface AdminSection {
  label: string;
  /** null: always part of the product (tags have no flag). */
  feature: Feature | null;
  /** Where the top-bar entry goes. */
  to: string;
  /** Its routes under /private, from the feature's own routes.tsx; they disappear with its flag. */
  routes: readonly RouteObject[];
}

/** The admin-only part of the product, in top-bar order. */
const ADMIN_SECTIONS: readonly AdminSection[] = [
  { label: 'Etiquetas', feature: null, to: paths.tags, routes: tagsRoutes },
  { label: 'Usuarios', feature: 'users', to: paths.users, routes: usersRoutes },
  { label: 'Colecciones', feature: 'collections', to: paths.collections, routes: collectionsRoutes },
  { label: 'Academy', feature: 'academy', to: paths.academy, routes: academyRoutes },
  { label: 'Operaciones', feature: 'operations', to: paths.operations, routes: operationsRoutes },
  { label: 'Enlaces', feature: null, to: paths.links, routes: linksRoutes },
  { label: 'Papelera', feature: null, to: paths.trash, routes: trashRoutes },
];

/**
 * The sections this deployment offers. The menu and the router both read this list, so a disabled feature
 * loses its entry and its routes together.
 */
export function enabledAdminSections(features: Deployment['features']): AdminSection[] {
  return ADMIN_SECTIONS.filter((section) => section.feature === null || features[section.feature]);
}
