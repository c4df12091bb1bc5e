import { entityKeys } from '../../../lib/entity-keys.ts';

/** Papelera queries, generic → specific. */
export const trashKeys = {
  all: ['trash'] as const,
  lists: () => [...trashKeys.all, 'list'] as const,
  thumbnail: (objectPath: string, picture: string) => [...trashKeys.all, 'thumbnail', objectPath, picture] as const,
};

/**
 * Prefixes of the caches a restore or purge changes elsewhere in the app: the files lists and details and
 * the catalogue counts. Realtime refreshes them too, this just does not wait for it in this tab.
 */
export const LIBRARY_KEYS = [entityKeys.files, entityKeys.collections, entityKeys.tags] as const;
