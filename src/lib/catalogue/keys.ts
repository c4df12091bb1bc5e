export const catalogueKeys = {
  tagCategories: ['tag-categories'] as const,
  tags: ['tags'] as const,
  collections: ['collections'] as const,
};
