import type { Deployment, Feature } from '../config/deployment.ts';
import { paths } from '../config/paths.ts';

export interface AdminSection {
  label: string;
  /** null: always part of the product (tags have no flag). */
  feature: Feature | null;
  /** Where the top-bar entry goes. */
  to: string;
  /** Route patterns under /private that belong to the section; they disappear with its flag. */
  routes: readonly string[];
}

/** The admin-only part of the product, in top-bar order (spec section 2). */
const ADMIN_SECTIONS: readonly AdminSection[] = [
  { label: 'Etiquetas', feature: null, to: paths.tags, routes: ['tags/*'] },
  { label: 'Usuarios', feature: 'users', to: paths.users, routes: ['users/*'] },
  { label: 'Colecciones', feature: 'collections', to: paths.collections, routes: ['collections', 'collection/:id'] },
  { label: 'Academy', feature: 'academy', to: paths.academy, routes: ['academy/*'] },
  { label: 'Operaciones', feature: 'operations', to: paths.operations, routes: ['operations'] },
];

/**
 * The sections this deployment offers. The menu and the router both read this list, so a disabled feature
 * loses its entry and its routes together.
 */
export function enabledAdminSections(features: Deployment['features']): AdminSection[] {
  return ADMIN_SECTIONS.filter((section) => section.feature === null || features[section.feature]);
}
