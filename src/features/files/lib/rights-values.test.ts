import { describe, expect, it } from 'vitest';
import type { FileDetail } from '../api/get-file-detail.ts';
import { prefilledRights, rightsUpdate, rightsValuesOf } from './rights-values.ts';

const file = (rights: Partial<FileDetail>, metadata: Partial<NonNullable<FileDetail['file_metadata']>> | null) =>
  ({
    rights_creator: '',
    rights_credit: '',
    rights_copyright: '',
    rights_license: null,
    rights_usage_terms: '',
    rights_expire_on: null,
    rights_release: null,
    ...rights,
    file_metadata: metadata && { creator: null, credit: null, copyright: null, usage_terms: null, ...metadata },
  }) as unknown as FileDetail;

describe('the rights form', () => {
  it('proposes the embedded texts for the empty fields only, and never overwrites what a person wrote', () => {
    const read = file({ rights_credit: 'Hoteles Sol' }, { creator: ' José Ñúñez ', credit: 'Agencia', copyright: '' });
    expect(prefilledRights(read)).toEqual({ rights_creator: 'José Ñúñez' });
    expect(rightsValuesOf(read)).toMatchObject({ rights_creator: 'José Ñúñez', rights_credit: 'Hoteles Sol' });
    expect(prefilledRights(file({}, null))).toEqual({});
  });

  it('writes nothing when the values are the saved ones, and null for the choices left unstated', () => {
    const saved = file({ rights_creator: 'Ana' }, null);
    expect(rightsUpdate(saved, rightsValuesOf(saved))).toBeNull();
    expect(rightsUpdate(saved, { ...rightsValuesOf(saved), rights_expire_on: '2027-01-31' })).toEqual({
      rights_creator: 'Ana',
      rights_credit: '',
      rights_copyright: '',
      rights_license: null,
      rights_usage_terms: '',
      rights_expire_on: '2027-01-31',
      rights_release: null,
    });
  });
});
