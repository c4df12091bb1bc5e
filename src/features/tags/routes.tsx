import type { RouteObject } from 'react-router-dom';

const categoryForm = async () => ({
  Component: (await import('./components/category-form-screen.tsx')).CategoryFormScreen,
});
const tagForm = async () => ({ Component: (await import('./components/tag-form-screen.tsx')).TagFormScreen });

/** The Etiquetas section's routes under /private; the app adds the admin guard. */
export const tagsRoutes: RouteObject[] = [
  { path: 'tags', lazy: async () => ({ Component: (await import('./components/tags-screen.tsx')).TagsScreen }) },
  { path: 'tags/new-category', lazy: categoryForm },
  { path: 'tags/edit-category/:categoryId', lazy: categoryForm },
  { path: 'tags/edit-category/:categoryId/add-tag', lazy: tagForm },
  { path: 'tags/edit-tag/:tagId', lazy: tagForm },
];
