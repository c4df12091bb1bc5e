export const sharingKeys = {
  all: ['public'] as const,
  file: (id: string) => [...sharingKeys.all, 'file', id] as const,
  collection: (id: string) => [...sharingKeys.all, 'collection', id] as const,
};
