import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { appUrl, expectAccessible, launchBrowser, screenshot, signIn } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { chooseFilter } from '../helpers/filters.ts';
import { pickTags } from '../helpers/tags.ts';

/** Selection and bulk actions on the files screen. */

let browser: Browser;
let page: Page;
const service = () => client('service_role');

async function makeFiles(marker: string, count: number, extra: Record<string, unknown> = {}) {
  const rows = Array.from({ length: count }, (_, i) => {
    const id = crypto.randomUUID();
    return {
      id,
      file_name: `${i}.pdf`,
      object_path: `${id}/${i}.pdf`,
      original_file_name: `${marker}-${i}.pdf`,
      name_es: `${marker} ${i}`,
      name_en: `${marker} ${i}`,
      size: 1000 + i,
      extension: 'pdf',
      processing: false,
      uploader_id: 'a0000000-0000-4000-8000-000000000001',
      ...extra,
    };
  });
  const { error } = await service().from('files').insert(rows);
  if (error) throw error;
  return rows.map((r) => r.id);
}

const count = async () => Number(await page.getByTestId('files-count').textContent());

async function searchFor(marker: string, expected: number) {
  await page.goto(appUrl(`/private/files?q=${marker}`));
  await expect.poll(count, { timeout: 15_000 }).toBe(expected);
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(appUrl('/login'));
  await signIn(page, seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  await page.waitForURL('**/private/files');
});

afterAll(async () => {
  await browser?.close();
});

describe('selection', () => {
  it('selects all filtered files and publishes then unpublishes them, the buttons following', async () => {
    const marker = `sel${crypto.randomUUID().slice(0, 6)}`;
    const ids = await makeFiles(marker, 3);
    await searchFor(marker, 3);
    await page.getByRole('button', { name: 'Seleccionar todos (3)' }).click();
    await expect.poll(() => page.getByText('3 seleccionados').count()).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Activar', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Desactivar' }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'files-selection');
    await page.getByRole('button', { name: 'Activar', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Desactivar' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Activar', exact: true }).count()).toBe(0);
    const published = await service().from('files').select('published').in('id', ids);
    expect(published.data?.every((f) => f.published)).toBe(true);
    await page.getByRole('button', { name: 'Desactivar' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Activar', exact: true }).count()).toBe(1);
  });

  it('selects a range with shift-click and clears the selection when the filters change', async () => {
    const marker = `rng${crypto.randomUUID().slice(0, 6)}`;
    await makeFiles(marker, 4);
    await searchFor(marker, 4);
    const boxes = page.getByRole('checkbox', { name: /^Seleccionar / });
    await boxes.nth(0).click();
    await boxes.nth(2).click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByText('3 seleccionados').count()).toBe(1);
    await chooseFilter(page, 'Tipo', 'Imágenes');
    await expect.poll(() => page.getByRole('region', { name: 'Archivos seleccionados' }).count()).toBe(0);
  });

  it('selects like a photo app once anything is selected: click toggles, shift-click extends, Space toggles', async () => {
    const marker = `pho${crypto.randomUUID().slice(0, 6)}`;
    await makeFiles(marker, 4);
    await searchFor(marker, 4);
    const cards = page.locator('.file-card-link');
    const bar = page.getByRole('region', { name: 'Archivos seleccionados' });
    const selected = (n: number) =>
      bar.getByText(`${n} ${n === 1 ? 'seleccionado' : 'seleccionados'}`, { exact: true });
    // Cards by their place in the grid (rows inserted at once may come in any order).
    await page.locator('.file-card .file-select').first().click();
    await selected(1).waitFor();

    // A plain click on another card adds it instead of opening it.
    await cards.nth(1).click();
    await selected(2).waitFor();
    expect(new URL(page.url()).pathname).toBe('/private/files');
    // Shift-click extends the range from the last card toggled, in this window.
    await cards.nth(3).click({ modifiers: ['Shift'] });
    await selected(4).waitFor();
    expect(page.context().pages()).toEqual([page]);
    expect(new URL(page.url()).pathname).toBe('/private/files');
    // Everything is selected: the button offers the way back.
    const deselectAll = page.getByRole('button', { name: 'Deseleccionar todos' });
    await deselectAll.waitFor();
    await cards.nth(3).click();
    await selected(3).waitFor();
    expect(await deselectAll.count()).toBe(0);
    // Space on the focused card toggles it.
    await cards.nth(3).focus();
    await page.keyboard.press('Space');
    await selected(4).waitFor();
    await screenshot(page, 'files-selection-photo-app');
    await expectAccessible(page);
    await deselectAll.click();
    await expect.poll(() => bar.count()).toBe(0);
    await page.getByRole('button', { name: 'Seleccionar todos (4)' }).click();
    await deselectAll.waitFor();
    await deselectAll.click();
    await expect.poll(() => bar.count()).toBe(0);
    // With nothing selected a click opens the file, as before.
    await cards.nth(2).click();
    await page.waitForURL(/\/private\/file\//);
  });

  it('refuses to delete processing files, and deletes others after confirmation', async () => {
    const busyMarker = `bsy${crypto.randomUUID().slice(0, 6)}`;
    await makeFiles(busyMarker, 1, { processing: true });
    await searchFor(busyMarker, 1);
    await page.getByRole('button', { name: 'Seleccionar todos (1)' }).click();
    await page.getByRole('button', { name: 'Borrar' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('No se pueden borrar archivos en proceso');

    const marker = `del${crypto.randomUUID().slice(0, 6)}`;
    const ids = await makeFiles(marker, 2);
    await searchFor(marker, 2);
    await page.getByRole('button', { name: 'Seleccionar todos (2)' }).click();
    await page.getByRole('region', { name: 'Archivos seleccionados' }).getByRole('button', { name: 'Borrar' }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.getByText('¿Seguro que deseas borrar').textContent()).toBe(
      // The files go to the Papelera and can be restored; 'no se puede deshacer' would be untrue.
      '¿Seguro que deseas borrar 2 archivos? Se moverán a la Papelera durante 30 días y se podrán restaurar desde allí.',
    );
    await screenshot(page, 'selection-delete-confirm');
    // Cancelar has the focus: Enter must never delete by accident.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancelar');
    await dialog.getByRole('button', { name: 'Borrar' }).click();
    await expect.poll(count).toBe(0);
    await page.getByText('2 archivos borrados.').waitFor();
    expect((await service().from('files').select('id').in('id', ids)).data).toEqual([]);
  });

  it('replaces the tags of the selection and adds it to a collection', async () => {
    const marker = `tag${crypto.randomUUID().slice(0, 6)}`;
    const ids = await makeFiles(marker, 2);
    await service().from('file_tags').insert({ file_id: ids[0], tag_id: 'd0000000-0000-4000-8000-000000000006' });
    await searchFor(marker, 2);
    await page.getByRole('button', { name: 'Seleccionar todos (2)' }).click();
    await page.getByRole('button', { name: 'Editar tags 2 archivo(s)' }).click();
    await page.waitForURL('**/private/edit-tags-files');
    await expect.poll(() => page.getByRole('note').textContent()).toMatch(/reemplazarán/);
    await pickTags(page, ['Piscina']);
    await screenshot(page, 'edit-tags');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/private\/files/);
    const links = await service().from('file_tags').select('file_id, tag_id').in('file_id', ids);
    expect(links.data?.map((l) => l.tag_id).sort()).toEqual([
      'd0000000-0000-4000-8000-000000000001',
      'd0000000-0000-4000-8000-000000000001',
    ]);

    await page.getByRole('button', { name: 'Seleccionar todos (2)' }).click();
    await page.getByRole('button', { name: 'Añadir a colección...' }).click();
    await page.getByRole('menuitem', { name: 'Material para agencias' }).click();
    await page.getByText('2 archivos añadidos a «Material para agencias».').waitFor();
    await expect
      .poll(
        async () =>
          (
            await service()
              .from('collection_files')
              .select('file_id')
              .eq('collection_id', 'e0000000-0000-4000-8000-000000000002')
              .in('file_id', ids)
          ).data?.length,
      )
      .toBe(2);
  });

  it("opens a card's admin info: facts, the Activo toggle, Editar and Descargar", async () => {
    const marker = `inf${crypto.randomUUID().slice(0, 6)}`;
    const [id] = await makeFiles(marker, 1);
    await service().storage.from('media').upload(`${id}/0.pdf`, '%PDF-1.4', { contentType: 'application/pdf' });
    await searchFor(marker, 1);
    await page.getByRole('button', { name: `Información de ${marker} 0` }).click();
    const panel = page.getByRole('dialog', { name: `Información de ${marker} 0` });
    // A switch whose state a screen reader reads (aria-checked) and whose label says the state it is in.
    const state = panel.getByRole('switch');
    await expect.poll(() => state.getAttribute('aria-checked')).toBe('false');
    expect(await panel.getByText('No activo', { exact: true }).count()).toBe(1);
    expect(await panel.getByText('1000 Bytes').count()).toBe(1);
    await expectAccessible(page);
    // The switch reflects the saved state, so it flips once the database has answered.
    await state.click();
    await expect
      .poll(async () => (await service().from('files').select('published').eq('id', id!).single()).data?.published)
      .toBe(true);
    await expect.poll(() => state.getAttribute('aria-checked')).toBe('true');
    expect(await panel.getByText('Activo', { exact: true }).count()).toBe(1);
    await expect.poll(() => panel.getByRole('link', { name: 'Descargar' }).count()).toBe(1);
    await screenshot(page, 'files-info');
    await panel.getByRole('link', { name: 'Editar' }).click();
    await page.waitForURL(`**/private/file/${id}`);
  });
});

describe('Descargar ZIP', () => {
  it('downloads the selected files as one ZIP with the originals inside', async () => {
    await page.goto(appUrl('/private/files?q=Circuito'));
    await expect.poll(count, { timeout: 15_000 }).toBe(1);
    await page.getByRole('button', { name: 'Seleccionar todos (1)' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Descargar ZIP' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = await readFile((await file.path())!);
    // A ZIP starts with a local file header and names the original file inside.
    expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(bytes.includes(Buffer.from('circuito-spa.jpg'))).toBe(true);
  });
});
