import { describe, expect, it } from 'vitest';
import { describeHistory } from './describe-history.ts';

describe('describeHistory', () => {
  it('says in Spanish what an edit changed, old → new', () => {
    expect(
      describeHistory('edited', { name_en: { old: 'Pool', new: 'Main pool' }, b2b: { old: true, new: false } }),
    ).toEqual({ title: 'Editó el archivo', details: ['Título (inglés): Pool → Main pool', 'B2B: Sí → No'] });
    expect(describeHistory('tagged', { tag: 'Piscina' }).title).toBe('Añadió la etiqueta Piscina');
    expect(describeHistory('restored', { name_es: 'Piscina' }).title).toBe('Lo restauró desde la Papelera');
    expect(describeHistory('edited', { description_en: { old: '', new: 'x' } }).details).toEqual([
      'Descripción (inglés): (vacío) → x',
    ]);
  });
});
