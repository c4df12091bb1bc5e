import type { RouteObject } from 'react-router-dom';

/**
 * The files screens under /private, each in its own chunk: the grid, the detail (which can replace a
 * file) and the bulk tag editor. `loadFilesScreen` is exported so the sign-in screen can fetch the grid's
 * code while the person types.
 */
export const loadFilesScreen = () => import('./components/files-screen.tsx');

export const filesRoutes: RouteObject[] = [
  { path: 'files', lazy: async () => ({ Component: (await loadFilesScreen()).FilesScreen }) },
  {
    path: 'file/:id',
    lazy: async () => ({ Component: (await import('./components/file-detail-screen.tsx')).FileDetailScreen }),
  },
  {
    path: 'edit-tags-files',
    lazy: async () => ({ Component: (await import('./components/edit-tags-screen.tsx')).EditTagsScreen }),
  },
];
