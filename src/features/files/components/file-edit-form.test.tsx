import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FileEditForm } from './file-edit-form.tsx';
import type { FileDetail } from '../api/get-file-detail.ts';
import { renderAs } from '../../../testing/render.tsx';
import { catalogueKeys } from '../../../lib/catalogue/keys.ts';

const file = {
  id: 'f0000000-0000-4000-8000-000000000001',
  name_es: 'Piscina principal',
  name_en: 'Main pool',
  description_es: '',
  description_en: '',
  b2b: true,
  operations: false,
  updated_at: '2026-11-23T10:00:00Z',
  file_tags: [{ tag_id: 't1' }],
  collection_files: [],
  rights_creator: '',
  rights_credit: '',
  rights_copyright: '',
  rights_license: null,
  rights_usage_terms: '',
  rights_expire_on: null,
  rights_release: null,
  file_metadata: null,
} as unknown as FileDetail;

function renderForm(role: 'ADMIN' | 'UPLOADER') {
  const view = renderAs(<FileEditForm file={file} />, { role });
  // The catalogue every private screen has loaded before routing is released.
  view.queryClient.setQueryData(catalogueKeys.tagCategories, [{ id: 'c1', name_es: 'Espacios' }]);
  view.queryClient.setQueryData(catalogueKeys.tags, [
    { id: 't1', category_id: 'c1', name_es: 'Piscina' },
    { id: 't2', category_id: 'c1', name_es: 'Spa' },
  ]);
  view.queryClient.setQueryData(catalogueKeys.collections, [{ id: 'k1', name: 'Campaña de verano' }]);
  return view;
}

describe('FileEditForm', () => {
  it("starts from the saved file and says 'El campo es obligatorio.' for an emptied title", async () => {
    renderForm('ADMIN');
    const title = screen.getByLabelText('Título');
    expect((title as HTMLInputElement).value).toBe('Piscina principal');
    expect(await screen.findByRole('button', { name: 'Quitar etiqueta Piscina' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Quitar etiqueta Spa' })).toBeNull();
    await userEvent.clear(title);
    expect(await screen.findByText('El campo es obligatorio.')).toBeTruthy();
    expect(screen.getByText('Cambios sin guardar')).toBeTruthy();
  });

  it('shows options and collections to an admin only', async () => {
    renderForm('ADMIN');
    expect(await screen.findByText('Opciones')).toBeTruthy();
    expect(await screen.findByLabelText('Campaña de verano')).toBeTruthy();
  });

  it('hides options and collections from an uploader, who still edits texts and tags', async () => {
    renderForm('UPLOADER');
    expect(await screen.findByRole('button', { name: 'Añadir etiquetas' })).toBeTruthy();
    expect(screen.queryByText('Opciones')).toBeNull();
    expect(screen.queryByText('Colecciones')).toBeNull();
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeTruthy();
  });
});

describe("FileEditForm marks what is 'Sin traducir'", () => {
  it('says the English title is missing while it is the Spanish one, and stops once translated', async () => {
    renderAs(<FileEditForm file={{ ...file, name_en: 'Piscina principal' } as FileDetail} />, { role: 'UPLOADER' });
    expect(await screen.findByText('Falta la traducción al inglés del título.')).toBeTruthy();
    const english = screen.getByLabelText('Título (inglés)') as HTMLInputElement;
    // Empty, with the Spanish title as a placeholder, rather than prefilled and flagged as missing.
    expect(english.value).toBe('');
    expect(english.placeholder).toBe('Piscina principal');
    await userEvent.type(english, 'Main pool');
    expect(screen.queryByText('Falta la traducción al inglés del título.')).toBeNull();
  });
});

describe("FileEditForm's 'Derechos'", () => {
  it('proposes the embedded credit for an empty field without marking the form changed', async () => {
    const read = {
      ...file,
      file_metadata: { creator: 'José Ñúñez', credit: null, copyright: null, usage_terms: null },
    };
    renderAs(<FileEditForm file={read as unknown as FileDetail} />, { role: 'ADMIN' });
    const author = (await screen.findByLabelText('Autor')) as HTMLInputElement;
    expect(author.value).toBe('José Ñúñez');
    expect(author.getAttribute('aria-describedby')).toBe('rights_creator-hint');
    expect(screen.getByText('Tomado de los metadatos del archivo; se guarda al pulsar Guardar.')).toBeTruthy();
    expect(screen.queryByText('Cambios sin guardar')).toBeNull();
    // Typed over, it is the person's own text: no longer marked as proposed.
    await userEvent.clear(author);
    await userEvent.type(author, 'Ana Ruiz');
    expect(screen.queryByText('Tomado de los metadatos del archivo; se guarda al pulsar Guardar.')).toBeNull();
  });

  it('tells an uploader that only an admin may clear or delay a stated expiry date', async () => {
    renderAs(<FileEditForm file={{ ...file, rights_expire_on: '2099-12-31' } as FileDetail} />, { role: 'UPLOADER' });
    expect(
      await screen.findByText(
        'El último día en que se puede usar. Solo un administrador puede quitar o retrasar esta fecha.',
      ),
    ).toBeTruthy();
  });
});
