import type { RouteObject } from 'react-router-dom';
import { VIDEO_PROVIDER } from './paths.ts';

/**
 * The Academy section's routes under /private; the app adds the admin guard. Every screen
 * loads on first visit, behind the tabs of the Academy layout.
 */
export const academyRoutes: RouteObject[] = [
  {
    path: 'academy',
    lazy: async () => ({ Component: (await import('./components/academy-layout.tsx')).AcademyLayout }),
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./components/videos-screen.tsx')).VideosScreen }) },
      {
        path: `fetch-${VIDEO_PROVIDER}`,
        lazy: async () => ({ Component: (await import('./components/fetch-video-screen.tsx')).FetchVideoScreen }),
      },
      {
        path: 'new-video',
        lazy: async () => ({ Component: (await import('./components/new-video-screen.tsx')).NewVideoScreen }),
      },
      {
        path: 'edit-video/:videoId',
        lazy: async () => ({ Component: (await import('./components/edit-video-screen.tsx')).EditVideoScreen }),
      },
      {
        path: 'categories',
        lazy: async () => ({ Component: (await import('./components/categories-screen.tsx')).CategoriesScreen }),
      },
      {
        path: 'new-category',
        lazy: async () => ({
          Component: (await import('./components/category-form-screen.tsx')).NewCategoryScreen,
        }),
      },
      {
        path: 'edit-category/:categoryId',
        lazy: async () => ({
          Component: (await import('./components/category-form-screen.tsx')).EditCategoryScreen,
        }),
      },
      {
        path: 'users',
        lazy: async () => ({ Component: (await import('./components/users-screen.tsx')).UsersScreen }),
      },
      {
        path: 'edit-user/:userId',
        lazy: async () => ({ Component: (await import('./components/edit-user-screen.tsx')).EditUserScreen }),
      },
    ],
  },
];
