import { describe, expect, it } from 'vitest';
import { changedFields, type FileFormValues } from './file-form-values.ts';

const base: FileFormValues = {
  name_es: 'Piscina',
  name_en: 'Pool',
  description_es: '',
  description_en: '',
  b2b: true,
  operations: false,
  tagIds: ['a', 'b'],
  collectionIds: [],
};

describe('changedFields', () => {
  it('lists only what the other person changed; tag order does not matter', () => {
    expect(changedFields(base, { ...base, tagIds: ['b', 'a'] })).toEqual([]);
    expect(changedFields(base, { ...base, name_en: 'Main pool', tagIds: ['a'] })).toEqual(['name_en', 'tagIds']);
  });
});
