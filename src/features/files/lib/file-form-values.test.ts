import { describe, expect, it } from 'vitest';
import { changedFields, englishTitleOf, savedEnglishTitle, type FileFormValues } from './file-form-values.ts';

const base: FileFormValues = {
  name_es: 'Piscina',
  name_en: 'Pool',
  description_es: '',
  description_en: '',
  b2b: true,
  operations: false,
  tagIds: ['a', 'b'],
  collectionIds: [],
  rights_creator: '',
  rights_credit: '',
  rights_copyright: '',
  rights_license: '',
  rights_usage_terms: '',
  rights_expire_on: '',
  rights_release: '',
};

describe('changedFields', () => {
  it('lists only what the other person changed; tag order does not matter', () => {
    expect(changedFields(base, { ...base, tagIds: ['b', 'a'] })).toEqual([]);
    expect(changedFields(base, { ...base, name_en: 'Main pool', tagIds: ['a'] })).toEqual(['name_en', 'tagIds']);
  });
});

describe('the English title while untranslated', () => {
  it('shows empty when it is the Spanish title, and saves the Spanish title when left empty', () => {
    expect(englishTitleOf({ name_es: 'Piscina', name_en: 'Piscina' })).toBe('');
    expect(englishTitleOf({ name_es: 'Piscina', name_en: 'Pool' })).toBe('Pool');
    expect(savedEnglishTitle({ name_es: 'Piscina', name_en: '  ' })).toBe('Piscina');
    expect(savedEnglishTitle({ name_es: 'Piscina', name_en: 'Pool' })).toBe('Pool');
  });
});
