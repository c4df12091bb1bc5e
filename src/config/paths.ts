/** Every route of the app in one place. */
export const paths = {
  home: '/',
  login: '/login',
  files: '/private/files',
  upload: '/private/upload',
  file: (id: string) => `/private/file/${id}`,
  editTagsFiles: '/private/edit-tags-files',
  tags: '/private/tags',
  users: '/private/users',
  collections: '/private/collections',
  collection: (id: string) => `/private/collection/${id}`,
  academy: '/private/academy',
  operations: '/private/operations',
  trash: '/private/trash',
  links: '/private/links',
} as const;

export const loginWithRedirect = (target: string) => `${paths.login}?redirect=${encodeURIComponent(target)}`;

/** Router state for /login meaning "sign the current user out first": the top bar's Salir. */
export const signOutState = { signOut: true } as const;

export const isSignOutState = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && (state as { signOut?: unknown }).signOut === true;
