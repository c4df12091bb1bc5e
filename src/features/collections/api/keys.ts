import { catalogueKeys } from '../../../lib/catalogue/keys.ts';

/**
 * Collection queries, generic → specific. They share the catalogue's ['collections'] prefix, so
 * invalidating `collectionKeys.all` also refreshes the collections the files screen and the file form use.
 */
export const collectionKeys = {
  all: catalogueKeys.collections,
  lists: () => [...collectionKeys.all, 'list'] as const,
  detail: (id: string) => [...collectionKeys.all, 'detail', id] as const,
  files: (id: string) => [...collectionKeys.all, 'files', id] as const,
};
