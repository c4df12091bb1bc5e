import { entityKeys } from '../entity-keys.ts';

export const catalogueKeys = {
  tagCategories: entityKeys.tagCategories,
  tags: entityKeys.tags,
  collections: entityKeys.collections,
};
