import { describe, expect, it } from 'vitest';
import { createUniqueNamer } from '../../../supabase/functions/_shared/zip-entries.ts';

describe('createUniqueNamer', () => {
  it('numbers a name already used in the archive, ignoring case, keeping the extension', () => {
    const name = createUniqueNamer();
    expect(['foto.jpg', 'Foto.JPG', 'foto.jpg', 'informe'].map(name)).toEqual([
      'foto.jpg',
      'Foto (2).JPG',
      'foto (3).jpg',
      'informe',
    ]);
  });

  it('remembers names across calls, as pages of entries arrive one after another', () => {
    const name = createUniqueNamer();
    const firstPage = ['plano.pdf', 'foto (2).jpg'].map(name);
    const secondPage = ['foto.jpg', 'foto.jpg', 'PLANO.pdf'].map(name);
    expect(firstPage).toEqual(['plano.pdf', 'foto (2).jpg']);
    // 'foto (2).jpg' is taken by a file that was really called so: the copy becomes 'foto (3).jpg'.
    expect(secondPage).toEqual(['foto.jpg', 'foto (3).jpg', 'PLANO (2).pdf']);
  });

  it('never makes folders or empty names', () => {
    const name = createUniqueNamer();
    expect(['Planos/planta.pdf', 'a\\b.txt', '', '.env'].map(name)).toEqual([
      'Planos_planta.pdf',
      'a_b.txt',
      'archivo',
      '.env',
    ]);
  });
});
