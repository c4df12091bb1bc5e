/** Query keys of the Etiquetas screen; the category and tag lists themselves are the shared catalogue's. */
export const tagAdminKeys = {
  all: ['tag-admin'] as const,
  fileCounts: () => [...tagAdminKeys.all, 'file-counts'] as const,
};
