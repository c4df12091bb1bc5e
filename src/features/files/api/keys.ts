import type { FileFilters } from './search-files.ts';
import type { FileSelection } from './selection.ts';
import type { MediaVariant } from './get-media-url.ts';

/** Every files query key, generic → specific: invalidating `fileKeys.all` refreshes them all. */
export const fileKeys = {
  all: ['files'] as const,
  lists: () => [...fileKeys.all, 'list'] as const,
  list: (filters: FileFilters, sort: string) => [...fileKeys.lists(), filters, sort] as const,
  counts: () => [...fileKeys.all, 'count'] as const,
  count: (filters: FileFilters) => [...fileKeys.counts(), filters] as const,
  details: () => [...fileKeys.all, 'detail'] as const,
  detail: (id: string) => [...fileKeys.details(), id] as const,
  history: (id: string) => [...fileKeys.all, 'history', id] as const,
  /** The server's jobs on one file (post-processing, moving old objects to the trash): admins only. */
  jobs: (id: string) => [...fileKeys.all, 'jobs', id] as const,
  selections: () => [...fileKeys.all, 'selection'] as const,
  selection: (selection: FileSelection) => [...fileKeys.selections(), selection] as const,
  /** Signed URLs are per object (a replaced file has a new object path), not per file. */
  mediaUrl: (objectPath: string, variant: MediaVariant) => ['media-url', objectPath, variant] as const,
  /** Every signed URL of one object, whatever its size. */
  mediaUrls: (objectPath: string) => ['media-url', objectPath] as const,
};
