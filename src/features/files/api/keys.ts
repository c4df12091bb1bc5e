import type { FileFilters } from './search-files.ts';

export const fileKeys = {
  all: ['files'] as const,
  lists: () => [...fileKeys.all, 'list'] as const,
  list: (filters: FileFilters, sort: string) => [...fileKeys.lists(), filters, sort] as const,
  detail: (id: string) => [...fileKeys.all, 'detail', id] as const,
};
