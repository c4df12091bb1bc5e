import { describe, expect, it } from 'vitest';
import { refusalMessage, refusalOf } from './refused-files.ts';

describe('refused files of a bulk action', () => {
  it('reads the list from the error details and names each file with its reason', () => {
    const error = {
      code: 'P0001',
      hint: 'RIGHTS_EXPIRED',
      details: JSON.stringify({ count: 1, files: [{ id: 'a', name: 'Piscina 2019', reason: 'RIGHTS_EXPIRED' }] }),
    };
    const refusal = refusalOf(error)!;
    expect(refusalMessage(refusal, 'activar')).toBe(
      '1 archivo no se puede activar: derechos caducados — «Piscina 2019»',
    );
  });

  it('groups by reason and counts the files it does not name', () => {
    const refusal = {
      count: 23,
      files: [
        { id: 'a', name: 'A', reason: 'RIGHTS_EXPIRED' },
        { id: 'b', name: 'B', reason: 'FILE_PROCESSING_FAILED' },
        { id: 'c', name: 'C', reason: 'RIGHTS_EXPIRED' },
      ],
    };
    expect(refusalMessage(refusal, 'activar')).toBe(
      '23 archivos no se pueden activar: derechos caducados — «A», «C»; no se pudo procesar — «B» y 20 más',
    );
  });

  it('is null for other errors', () => {
    expect(refusalOf({ code: '42501', details: null })).toBeNull();
    expect(refusalOf({ details: 'Key (id) is not present' })).toBeNull();
    expect(refusalOf(new Error('x'))).toBeNull();
  });
});
