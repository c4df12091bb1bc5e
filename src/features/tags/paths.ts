/** Routes of the Etiquetas section. */
export const tagPaths = {
  list: '/private/tags',
  newCategory: '/private/tags/new-category',
  editCategory: (categoryId: string) => `/private/tags/edit-category/${categoryId}`,
  addTag: (categoryId: string) => `/private/tags/edit-category/${categoryId}/add-tag`,
  editTag: (tagId: string) => `/private/tags/edit-tag/${tagId}`,
  filesWithTag: (tagId: string) => `/private/files?tag=${encodeURIComponent(tagId)}`,
};
