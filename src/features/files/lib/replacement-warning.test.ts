import { describe, expect, it } from 'vitest';
import { replacementWarning } from './replacement-warning.ts';

const jpg = { extension: 'jpg', is_image: true };
const pdf = { extension: 'pdf', is_image: false };

describe('replacementWarning', () => {
  it('asks before a JPG is replaced by a PDF, and before a PDF is replaced by a photo', () => {
    expect(replacementWarning(jpg, { name: 'tarifas.pdf', type: 'application/pdf' })).toBe(
      'El archivo actual es una imagen JPG y el nuevo es un documento PDF. Las colecciones y los enlaces públicos mostrarán el nuevo archivo. ¿Reemplazarlo de todos modos?',
    );
    expect(replacementWarning(pdf, { name: 'Piscina.JPEG', type: '' })).toMatch(
      /^El archivo actual es un documento PDF y el nuevo es una imagen JPEG\./,
    );
  });

  it('says nothing while the kind stays the same', () => {
    expect(replacementWarning(jpg, { name: 'piscina.png', type: 'image/png' })).toBeNull();
    expect(replacementWarning(pdf, { name: 'tarifas-2028.docx', type: '' })).toBeNull();
  });
});
