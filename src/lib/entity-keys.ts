/**
 * Query-key prefixes of the entities more than one feature caches. Each feature's own keys for them start
 * with these (files/api/keys.ts, lib/catalogue/keys.ts); a feature that changes one of them elsewhere (a
 * restore from the Papelera, say) invalidates the prefix without knowing the owner's keys.
 */
export const entityKeys = {
  files: ['files'] as const,
  tagCategories: ['tag-categories'] as const,
  tags: ['tags'] as const,
  collections: ['collections'] as const,
};
