export const publicPageKeys = {
  all: ['public'] as const,
  file: (id: string) => [...publicPageKeys.all, 'file', id] as const,
  collection: (id: string) => [...publicPageKeys.all, 'collection', id] as const,
  /** Each open of a link is a view the server counts: the grant is part of the key, not a refetch. */
  shareLink: (token: string, grant: string | null) => ['share-page', token, grant] as const,
};
