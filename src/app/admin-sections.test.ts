import { describe, expect, it } from 'vitest';
import type { RouteObject } from 'react-router-dom';
import { enabledAdminSections } from './admin-sections.ts';
import { privateRoutes } from './private-routes.tsx';
import { deployment } from '../config/deployment.ts';

function routePaths(routes: RouteObject[], prefix = '/private'): string[] {
  return routes.flatMap((route) => {
    const here = route.path ? (route.path.startsWith('/') ? route.path : `${prefix}/${route.path}`) : prefix;
    return [...(route.path ? [here] : []), ...routePaths(route.children ?? [], here)];
  });
}

describe('admin sections and feature flags', () => {
  it('offers every admin section this deployment enables', () => {
    expect(enabledAdminSections(deployment.features).map((section) => section.label)).toEqual([
      'Etiquetas',
      'Usuarios',
      'Colecciones',
      'Academy',
      'Operaciones',
      'Enlaces',
      'Papelera',
    ]);
    expect(routePaths(privateRoutes(deployment.features))).toEqual(
      expect.arrayContaining(['/private/users', '/private/collection/:id', '/private/academy']),
    );
  });

  it('drops the menu entry and the routes of a disabled feature', () => {
    const features = { ...deployment.features, users: false, collections: false, operations: false };
    expect(enabledAdminSections(features).map((section) => section.label)).toEqual([
      'Etiquetas',
      'Academy',
      'Enlaces',
      'Papelera',
    ]);
    const paths = routePaths(privateRoutes(features));
    expect(paths.filter((path) => path.startsWith('/private/users'))).toEqual([]);
    expect(paths).not.toContain('/private/operations');
    expect(paths).not.toContain('/private/collections');
    expect(paths).not.toContain('/private/collection/:id');
    expect(paths).toContain('/private/tags/edit-tag/:tagId');
    expect(paths).toContain('/private/files');
  });

  it('drops the Academy entry and every Academy route when the academy flag is off', () => {
    const academyPaths = (features: typeof deployment.features) =>
      routePaths(privateRoutes(features)).filter((path) => path.startsWith('/private/academy'));
    expect(academyPaths(deployment.features).sort()).toEqual([
      '/private/academy',
      '/private/academy/categories',
      '/private/academy/edit-category/:categoryId',
      '/private/academy/edit-user/:userId',
      '/private/academy/edit-video/:videoId',
      '/private/academy/fetch-youtube',
      '/private/academy/new-category',
      '/private/academy/new-video',
      '/private/academy/users',
    ]);
    const features = { ...deployment.features, academy: false };
    expect(enabledAdminSections(features).map((section) => section.label)).not.toContain('Academy');
    expect(academyPaths(features)).toEqual([]);
  });
});
