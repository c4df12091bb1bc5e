import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs, viewports } from '../helpers/browser.ts';
import { client, signedInSeed } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { pickTags } from '../helpers/tags.ts';

/**
 * The file form: the English title of an untranslated file is empty with the Spanish one as its
 * placeholder, and 'Sin traducir' agrees; Spanish and English side by side on a wide screen; tags
 * through a searchable list; leaving with unsaved changes asks first.
 */

let browser: Browser;
let context: BrowserContext;
let page: Page;
const marker = `formulario${crypto.randomUUID().slice(0, 6)}`;
let fileId = '';

/** How many files the files screen's filters match, as the admin's screen counts them. */
async function filtered(filter: Record<string, string>) {
  const admin = await signedInSeed('ADMIN');
  const { data, error } = await admin.rpc('count_files', { p_filter: filter });
  expect(error).toBeNull();
  return data as number;
}

async function openForm() {
  await page.goto(appUrl(`/private/file/${fileId}`));
  await page.getByLabel('Título', { exact: true }).waitFor();
}

beforeAll(async () => {
  // As an upload records it: both titles the file name.
  fileId = (await insertFiles(marker, 1, { name: () => `${marker} Vestíbulo` }))[0]!;
  browser = await launchBrowser();
  ({ context, page } = await signedInAs(browser, 'ADMIN'));
});

afterAll(async () => {
  await browser?.close();
});

describe('the file form', () => {
  it("leaves the English title empty until translated, and 'Sin traducir' finds the same files", async () => {
    await openForm();
    const english = page.getByLabel('Título (inglés)');
    expect(await english.inputValue()).toBe('');
    expect(await english.getAttribute('placeholder')).toBe(`${marker} Vestíbulo`);
    await page.getByText('Falta la traducción al inglés del título.').waitFor();
    expect(await filtered({ query: marker, translation: 'missing' })).toBe(1);

    // A save that leaves it empty keeps it untranslated (the Spanish title), as the filter reads it.
    await page.getByLabel('Descripción', { exact: true }).fill('Entrada principal');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios guardados.').waitFor();
    const saved = await client('service_role').from('files').select('name_en').eq('id', fileId).single();
    expect(saved.data?.name_en).toBe(`${marker} Vestíbulo`);

    await english.fill('Lobby');
    await page.getByLabel('Descripción (inglés)').fill('Main entrance');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.getByText('Falta la traducción al inglés del título.').count()).toBe(0);
    await expect
      .poll(async () => (await client('service_role').from('files').select('name_en').eq('id', fileId).single()).data)
      .toEqual({ name_en: 'Lobby' });
    expect(await filtered({ query: marker, translation: 'missing' })).toBe(0);
  });

  it('shows Spanish and English side by side on a wide screen, one above the other on a phone', async () => {
    await openForm();
    const top = async (legend: string) =>
      (await page
        .locator('fieldset', { has: page.locator('legend', { hasText: legend }) })
        .first()
        .boundingBox())!.y;
    expect(Math.abs((await top('Español')) - (await top('English')))).toBeLessThan(2);
    await screenshot(page, 'file-form-desktop');
    await expectAccessible(page);
    await page.setViewportSize(viewports.phone);
    expect((await top('English')) - (await top('Español'))).toBeGreaterThan(100);
    await screenshot(page, 'file-form-phone');
    await page.setViewportSize(viewports.desktop);
  });

  it('chooses tags from a searchable list grouped by category, accents or not', async () => {
    await openForm();
    await page.getByRole('button', { name: 'Añadir etiquetas' }).click();
    const search = page.getByRole('combobox', { name: 'Buscar etiqueta' });
    await search.fill('habitacion');
    await expect.poll(() => page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['Habitación']);
    await search.fill('');
    await page.getByRole('group', { name: 'Temporada' }).waitFor();
    await screenshot(page, 'file-form-tags');
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await pickTags(page, ['Habitación', 'Invierno']);
    await page.getByRole('button', { name: 'Quitar etiqueta Invierno' }).click();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect
      .poll(async () => (await client('service_role').from('file_tags').select('tag_id').eq('file_id', fileId)).data)
      .toEqual([{ tag_id: 'd0000000-0000-4000-8000-000000000002' }]);
  });

  it('asks before leaving with unsaved changes, and leaves when told to', async () => {
    await openForm();
    await page.getByLabel('Título', { exact: true }).fill(`${marker} Recepción`);
    await page
      .getByRole('navigation', { name: 'Principal' })
      .getByRole('link', { name: 'Archivos', exact: true })
      .click();
    const dialog = page.getByRole('alertdialog', { name: '¿Salir sin guardar?' });
    await dialog.waitFor();
    await screenshot(page, 'file-form-unsaved');
    await dialog.getByRole('button', { name: 'Seguir editando' }).click();
    expect(new URL(page.url()).pathname).toBe(`/private/file/${fileId}`);
    expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe(`${marker} Recepción`);

    await page
      .getByRole('navigation', { name: 'Principal' })
      .getByRole('link', { name: 'Archivos', exact: true })
      .click();
    await dialog.getByRole('button', { name: 'Salir sin guardar' }).click();
    await page.waitForURL(/\/private\/files$/);
  });
});

afterAll(async () => {
  await context?.close();
});
