import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAccounts, seedCollections, seedTags } from '../helpers/seed.ts';

/**
 * The Papelera: files deleted from the grid wait there 30 days; 'Restaurar' brings them back
 * with their tags and collections (also into a grid open in another session, by Realtime), 'Borrar
 * definitivamente' removes them for good.
 */

let browser: Browser;
let service: SupabaseClient;

const DATE_TIME = /\d{2}\/\d{2}\/\d{4} a las \d{2}:\d{2}:\d{2}/;

/** An image file of the admin's with its stored object, tagged 'piscina' and in the 'verano' collection. */
async function imageFile(name: string, color: string) {
  const id = crypto.randomUUID();
  const objectPath = `${id}/${crypto.randomUUID()}.jpg`;
  const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
  const stored = await service.storage.from('media').upload(objectPath, bytes, { contentType: 'image/jpeg' });
  if (stored.error) throw stored.error;
  const inserted = await service.from('files').insert({
    id,
    file_name: objectPath.split('/')[1],
    object_path: objectPath,
    original_file_name: `${name}.jpg`,
    name_es: name,
    name_en: name,
    size: bytes.length,
    extension: 'jpg',
    processing: false,
    width: 640,
    height: 480,
    uploader_id: seedAccounts.ADMIN.id,
  });
  if (inserted.error) throw inserted.error;
  await service.from('file_tags').insert({ file_id: id, tag_id: seedTags.piscina });
  await service.from('collection_files').insert({ collection_id: seedCollections.verano, file_id: id });
  return id;
}

const filesCount = (page: Page) => async () => Number(await page.getByTestId('files-count').textContent());
const trashRow = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Archivos en la papelera' }).getByRole('listitem', { name });

async function trashedIds(ids: string[]): Promise<string[]> {
  const { data, error } = await service.from('trashed_files').select('file_id').in('file_id', ids);
  if (error) throw error;
  return data.map((row) => row.file_id).sort();
}

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('Papelera', () => {
  it('deleted from the grid → in the Papelera → restored with its tags and collections, live in an open grid → purged', async () => {
    const marker = `papelera${crypto.randomUUID().slice(0, 6)}`;
    const kept = `${marker} faro`;
    const purged = `${marker} muelle`;
    const ids = [await imageFile(kept, '#0084D8'), await imageFile(purged, '#D88400')];

    const { page } = await signedInAs(browser, 'ADMIN', { landing: `/private/files?q=${marker}` });
    await expect.poll(filesCount(page), { timeout: 15_000 }).toBe(2);
    await page.getByRole('button', { name: 'Seleccionar todos (2)' }).click();
    await page.getByRole('region', { name: 'Archivos seleccionados' }).getByRole('button', { name: 'Borrar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.getByText('2 archivos borrados.').waitFor();
    await expect.poll(filesCount(page)).toBe(0);
    expect(await trashedIds(ids)).toEqual([...ids].sort());

    // Another admin session keeps the grid open on the same search.
    const other = await signedInAs(browser, 'ADMIN', { landing: `/private/files?q=${marker}` });
    await expect.poll(filesCount(other.page), { timeout: 15_000 }).toBe(0);

    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Papelera' }).click();
    await page.waitForURL('**/private/trash');
    const row = trashRow(page, kept);
    await row.waitFor();
    expect(await row.getByText('Borrado por').textContent()).toMatch(
      new RegExp(`^Borrado por ${seedAccounts.ADMIN.email} el ${DATE_TIME.source}$`),
    );
    expect(await row.getByText('Se borrará definitivamente el').textContent()).toMatch(DATE_TIME);
    // The thumbnails come from the trash bucket once the server has moved the objects there.
    await expect.poll(() => row.locator('img.trash-thumbnail').count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => row.locator('img.trash-thumbnail').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await expectAccessible(page);
    await screenshot(page, 'trash-desktop');

    await row.getByRole('button', { name: 'Restaurar' }).click();
    await page.getByText('1 archivo restaurado.').waitFor();
    await expect.poll(() => row.count()).toBe(0);
    expect(await trashedIds(ids)).toEqual([ids[1]]);
    // The open grid in the other session shows it again, without a reload.
    await expect.poll(filesCount(other.page), { timeout: 15_000 }).toBe(1);
    await other.context.close();

    // Back with its tag and its collection: the grid filtered by both lists it.
    await page.goto(appUrl(`/private/files?q=${marker}&tag=${seedTags.piscina}&collection=${seedCollections.verano}`));
    await expect.poll(filesCount(page), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('.file-card .file-name').allTextContents()).toEqual([kept]);

    await page.goto(appUrl('/private/trash'));
    const doomed = trashRow(page, purged);
    await doomed.getByRole('button', { name: 'Borrar definitivamente' }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.getByText('¿Seguro que deseas borrar').textContent()).toBe(
      `¿Seguro que deseas borrar definitivamente «${purged}»? Esta acción no se puede deshacer.`,
    );
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancelar');
    await dialog.getByRole('button', { name: 'Borrar definitivamente' }).click();
    await page.getByText('1 archivo borrado definitivamente.').waitFor();
    await expect.poll(() => doomed.count()).toBe(0);
    expect(await trashedIds(ids)).toEqual([]);
    expect((await service.from('files').select('id').eq('id', ids[1]!)).data).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('restores a selection at once, and looks right on a phone', async () => {
    const marker = `papeleramovil${crypto.randomUUID().slice(0, 6)}`;
    const names = [`${marker} playa`, `${marker} terraza con vistas al mar y a la montaña`];
    const ids = [await imageFile(names[0]!, '#2E8B57'), await imageFile(names[1]!, '#8B2E57')];
    const deleted = await service.from('files').delete().in('id', ids);
    expect(deleted.error).toBeNull();

    const { page, context } = await signedInAs(browser, 'ADMIN', { viewport: 'phone', landing: '/private/trash' });
    for (const name of names) await trashRow(page, name).waitFor();
    for (const name of names) await page.getByRole('checkbox', { name: `Seleccionar ${name}` }).check();
    await page.getByText('2 archivos seleccionados').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'trash-phone');

    await page.getByRole('group', { name: 'Selección' }).getByRole('button', { name: 'Restaurar' }).click();
    await page.getByText('2 archivos restaurados.').waitFor();
    for (const name of names) await expect.poll(() => trashRow(page, name).count()).toBe(0);
    expect(await trashedIds(ids)).toEqual([]);
    const { data } = await service.from('files').select('id').in('id', ids);
    expect(data).toHaveLength(2);
    await context.close();
  }, 120_000);

  it('keeps the Papelera from uploaders: no menu entry, no screen', async () => {
    const { page, context } = await signedInAs(browser, 'UPLOADER', { landing: '/private/trash' });
    await page.waitForURL((url) => url.pathname !== '/login');
    expect(
      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Papelera' }).count(),
    ).toBe(0);
    expect(await page.getByRole('heading', { name: 'Papelera' }).count()).toBe(0);
    await context.close();
  }, 60_000);
});
