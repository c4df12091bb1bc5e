import { describe, expect, it } from 'vitest';
import { plural } from './plural.ts';

describe('plural', () => {
  it('uses the singular for exactly one', () => {
    expect(plural(1, 'archivo filtrado', 'archivos filtrados')).toBe('1 archivo filtrado');
    expect(plural(0, 'archivo filtrado', 'archivos filtrados')).toBe('0 archivos filtrados');
    expect(plural(12345, 'archivo', 'archivos')).toBe('12.345 archivos');
  });
});
