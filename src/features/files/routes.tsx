import type { RouteObject } from 'react-router-dom';
import type { RouteHandle } from '../../lib/route-handle.ts';

/**
 * The files screens under /private, each in its own chunk: the grid, the detail (which can replace a
 * file) and the bulk tag editor. `loadFilesScreen` is exported so the sign-in screen can fetch the grid's
 * code while the person types.
 */
export const loadFilesScreen = () => import('./components/files-screen.tsx');

// The grid's module has been downloaded with the screen by then (the sign-in screen fetches both early).
const filesHandle: RouteHandle = {
  prefetch: (queryClient, search) =>
    void import('./api/prefetch-file-results.ts').then((module) => module.prefetchFilesScreen(queryClient, search)),
};

export const filesRoutes: RouteObject[] = [
  { path: 'files', handle: filesHandle, lazy: async () => ({ Component: (await loadFilesScreen()).FilesScreen }) },
  {
    path: 'file/:id',
    lazy: async () => ({ Component: (await import('./components/file-detail-screen.tsx')).FileDetailScreen }),
  },
  {
    path: 'edit-tags-files',
    lazy: async () => ({ Component: (await import('./components/edit-tags-screen.tsx')).EditTagsScreen }),
  },
];
