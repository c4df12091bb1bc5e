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

  it('says rights changes in the words and date format of the form', () => {
    expect(
      describeHistory('edited', {
        rights_license: { old: null, new: 'author_ceded' },
        rights_release: { old: 'yes', new: 'not_applicable' },
        rights_expire_on: { old: '2027-03-31', new: null },
        rights_credit: { old: '', new: 'Foto: Ana Ruiz' },
      }).details,
    ).toEqual([
      'Licencia: (vacío) → Cedida por el autor',
      'Autorización de modelo o propiedad: Sí → No aplica',
      'Caducan el: 31/03/2027 → (vacío)',
      'Crédito: (vacío) → Foto: Ana Ruiz',
    ]);
  });
});
