import type { FileFilters } from './file-filters.ts';
import type { FileSelection } from './selection.ts';
import { entityKeys } from '../../../lib/entity-keys.ts';

/** Every files query key, generic → specific: invalidating `fileKeys.all` refreshes them all. */
export const fileKeys = {
  all: entityKeys.files,
  lists: () => [...fileKeys.all, 'list'] as const,
  /** A list from its first file, or from the first file of a month (`from`, 'YYYY-MM': a timeline jump). */
  list: (filters: FileFilters, sort: string, from?: string | null) =>
    from ? ([...fileKeys.lists(), filters, sort, from] as const) : ([...fileKeys.lists(), filters, sort] as const),
  counts: () => [...fileKeys.all, 'count'] as const,
  count: (filters: FileFilters) => [...fileKeys.counts(), filters] as const,
  /** The timeline's months: totals too, so whatever refreshes the counts refreshes them. */
  months: (filters: FileFilters, sort: string) => [...fileKeys.counts(), 'months', filters, sort] as const,
  details: () => [...fileKeys.all, 'detail'] as const,
  detail: (id: string) => [...fileKeys.details(), id] as const,
  history: (id: string) => [...fileKeys.all, 'history', id] as const,
  /** The server's jobs on one file (post-processing, moving old objects to the trash): admins only. */
  jobs: (id: string) => [...fileKeys.all, 'jobs', id] as const,
  /** How many published files' rights end within 30 days (admins' notice on the files screen). */
  rightsExpiring: () => [...fileKeys.all, 'rights-expiring'] as const,
  /** Tags the file's embedded keywords propose (public.suggested_tags). */
  suggestedTags: (id: string) => [...fileKeys.all, 'suggested-tags', id] as const,
  selections: () => [...fileKeys.all, 'selection'] as const,
  selection: (selection: FileSelection) => [...fileKeys.selections(), selection] as const,
};
