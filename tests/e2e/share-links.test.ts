import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs, viewports } from '../helpers/browser.ts';
import { client, signedInSeed, stackInfo } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { readZip } from '../helpers/zip.ts';

/** Enlaces compartidos: created from a selection, opened signed out, with a password, without downloads, revoked. */

let browser: Browser;
const service = () => client('service_role');

/** Processed images with real bytes, so the link's renders and originals exist. */
async function makeImages(marker: string, count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    const bytes = await sharp({
      create: { width: 800, height: 600, channels: 3, background: i === 0 ? '#2a7ab8' : '#d08c3c' },
    })
      .jpeg()
      .toBuffer();
    const upload = await service().storage.from('media').upload(`${id}/foto-${i}.jpg`, bytes, {
      contentType: 'image/jpeg',
    });
    if (upload.error) throw upload.error;
    const { error } = await service()
      .from('files')
      .insert({
        id,
        file_name: `foto-${i}.jpg`,
        object_path: `${id}/foto-${i}.jpg`,
        original_file_name: `${marker}-${i}.jpg`,
        name_es: `${marker} playa ${i}`,
        name_en: `${marker} beach ${i}`,
        size: bytes.length,
        extension: 'jpg',
        width: 800,
        height: 600,
        processing: false,
        uploader_id: seedAccounts.ADMIN.id,
      });
    if (error) throw error;
    ids.push(id);
  }
  return ids;
}

const tokenOf = (url: string) => url.split('/s/')[1]!;

async function visitor(viewport: keyof typeof viewports) {
  const context = await browser.newContext({ viewport: viewports[viewport], acceptDownloads: true });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  return { context, page };
}

/** Every card's render has arrived and decoded (a 404 would leave naturalWidth at 0). */
const picturesLoaded = (page: Page) =>
  page
    .locator('.share-card img')
    .evaluateAll((imgs) =>
      imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
    );

const mediaFetch = (token: string, fileId: string, query: string) =>
  fetch(`${stackInfo().apiUrl}/functions/v1/share-link-media/${token}/${fileId}?${query}`, { redirect: 'manual' });

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('Enlaces compartidos', () => {
  it('an admin shares a selection with a password and no downloads; the visitor enters; the admin revokes', async () => {
    const marker = `enl${crypto.randomUUID().slice(0, 6)}`;
    const ids = await makeImages(marker, 2);
    const { page, context } = await signedInAs(browser, 'ADMIN', { landing: `/private/files?q=${marker}` });
    await page.getByRole('button', { name: 'Seleccionar todos (2)' }).click();
    // The bar keeps its actions in one row where they are buttons.
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `share-link-selection-bar-${width}`);
      const bar = page.getByRole('region', { name: 'Archivos seleccionados' });
      expect(await bar.evaluate((el) => el.scrollWidth - el.clientWidth), `${width}`).toBeLessThanOrEqual(0);
    }
    // At 1024 px it is in 'Más acciones'.
    await page.getByRole('button', { name: 'Más acciones' }).click();
    await page.getByRole('menuitem', { name: 'Compartir enlace' }).waitFor();
    await page.keyboard.press('Escape');
    await page.setViewportSize(viewports.desktop);
    await page.getByRole('button', { name: 'Compartir enlace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Compartir enlace' });
    await dialog.getByLabel('Nombre').fill(`Prensa ${marker}`);
    expect(await dialog.getByLabel('Caducidad').inputValue()).toBe('30');
    await dialog.getByLabel('Contraseña (opcional)').fill('brisa-marina');
    expect(await dialog.getByLabel('Permitir descargas').isChecked()).toBe(true);
    await dialog.getByLabel('Permitir descargas').uncheck();
    await screenshot(page, 'share-link-dialog-1440');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Crear enlace' }).click();
    const urlField = dialog.getByLabel('Enlace');
    await urlField.waitFor();
    const url = await urlField.inputValue();
    expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{32}$/);
    expect(await dialog.getByRole('button', { name: 'Copiar enlace' }).count()).toBe(1);
    await screenshot(page, 'share-link-created-1440');
    const token = tokenOf(url);

    // Signed out, in a context of its own.
    const guest = await visitor('desktop');
    await guest.page.goto(appUrl(`/s/${token}`));
    await guest.page.getByLabel('Contraseña').fill('no-es-esta');
    await guest.page.getByRole('button', { name: 'Entrar' }).click();
    await guest.page.getByText('Contraseña incorrecta').waitFor();
    await screenshot(guest.page, 'share-link-password-1440');
    await expectAccessible(guest.page);
    await guest.page.getByLabel('Contraseña').fill('brisa-marina');
    await guest.page.getByRole('button', { name: 'Entrar' }).click();
    await guest.page.getByRole('heading', { name: `Prensa ${marker}` }).waitFor();
    await expect.poll(() => guest.page.locator('.share-card').count()).toBe(2);
    await expect.poll(() => picturesLoaded(guest.page)).toBe(true);
    expect(await guest.page.getByRole('link', { name: /^Descargar/ }).count()).toBe(0);
    expect(await guest.page.getByRole('button', { name: 'Descargar todo (ZIP)' }).count()).toBe(0);
    await guest.page.getByText('Quien compartió este enlace no permite descargar los originales.').waitFor();
    await screenshot(guest.page, 'share-link-page-1440');
    await expectAccessible(guest.page);

    // The lightbox shows the large render; English titles on ?lang=en.
    await guest.page.getByRole('button', { name: new RegExp(`Ver a tamaño grande: ${marker} playa 0`) }).click();
    const lightbox = guest.page.getByRole('dialog', { name: `${marker} playa 0` });
    await lightbox.locator('img').waitFor();
    await expect
      .poll(() => lightbox.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await screenshot(guest.page, 'share-link-lightbox-1440');
    await guest.page.keyboard.press('Escape');
    await guest.page.getByRole('button', { name: 'English' }).click();
    await guest.page.getByText(`${marker} beach 1`).waitFor();

    // No original through this link, with its own valid grant.
    const grant = await guest.page.evaluate((t) => sessionStorage.getItem(`mediateca.share-grant.${t}`), token);
    expect(grant).toBeTruthy();
    const refused = await mediaFetch(token, ids[0]!, `original=1&grant=${grant}`);
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe('DOWNLOAD_NOT_ALLOWED');

    // The Enlaces screen: counted on the server, then revoked.
    await page.keyboard.press('Escape');
    await page.goto(appUrl('/private/links'));
    const row = page.getByRole('listitem', { name: `Prensa ${marker}` });
    await row.getByText('Activo').waitFor();
    expect(await row.getByText('2 archivos').count()).toBe(1);
    expect(await row.getByText(seedAccounts.ADMIN.email).count()).toBe(1);
    expect(await row.getByText('0 (no permitidas)').count()).toBe(1);
    await expect.poll(async () => (await row.locator('dd').nth(3).textContent())?.trim()).toBe('1');
    await screenshot(page, 'share-links-screen-1440');
    await expectAccessible(page);
    await page.getByLabel('Buscar enlace').fill(marker);
    await row.getByRole('button', { name: 'Revocar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revocar' }).click();
    await row.getByText('Revocado').waitFor();
    await screenshot(page, 'share-links-revoked-1440');

    // At once for the visitor: the page, and the renders it was showing.
    await guest.page.reload();
    await guest.page.getByRole('heading', { name: 'This link has expired or is no longer available' }).waitFor();
    await guest.page.getByRole('button', { name: 'Español' }).click();
    await guest.page.getByRole('heading', { name: 'Este enlace ha caducado o ya no está disponible' }).waitFor();
    await screenshot(guest.page, 'share-link-unavailable-1440');
    expect((await mediaFetch(token, ids[0]!, `size=400x300&grant=${grant}`)).status).toBe(404);
    await guest.context.close();
    await context.close();
  });

  it('a link with downloads on a phone: Descargar per file and the whole ZIP built in the page', async () => {
    const marker = `enz${crypto.randomUUID().slice(0, 6)}`;
    const ids = await makeImages(marker, 2);
    const admin = await signedInSeed('ADMIN');
    const { data, error } = await admin.rpc('create_share_link', {
      p_name: `Agencia ${marker}`,
      p_expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      p_file_ids: ids,
    });
    expect(error).toBeNull();
    const { token } = data as { token: string };

    const guest = await visitor('phone');
    await guest.page.goto(appUrl(`/s/${token}`));
    await guest.page.getByRole('heading', { name: `Agencia ${marker}` }).waitFor();
    expect(await guest.page.getByRole('link', { name: /^Descargar:/ }).count()).toBe(2);
    await expect.poll(() => picturesLoaded(guest.page)).toBe(true);
    await screenshot(guest.page, 'share-link-page-390');
    await expectAccessible(guest.page);
    const width = await guest.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);

    const [download] = await Promise.all([
      guest.page.waitForEvent('download'),
      guest.page.getByRole('button', { name: 'Descargar todo (ZIP)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Agencia ${marker}.zip`);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    const entries = readZip(await readFile(path));
    expect([...entries.keys()].sort()).toEqual([`${marker}-0.jpg`, `${marker}-1.jpg`]);
    const original = await service().storage.from('media').download(`${ids[0]}/foto-0.jpg`);
    expect(Buffer.from(await original.data!.arrayBuffer()).equals(entries.get(`${marker}-0.jpg`)!)).toBe(true);
    await guest.context.close();

    // The Enlaces screen on a phone counts both downloads.
    const phone = await signedInAs(browser, 'ADMIN', { viewport: 'phone', landing: '/private/links' });
    const row = phone.page.getByRole('listitem', { name: `Agencia ${marker}` });
    await row.getByText('Activo').waitFor();
    await expect.poll(async () => (await row.locator('dd').nth(4).textContent())?.trim()).toBe('2');
    await screenshot(phone.page, 'share-links-screen-390');
    await expectAccessible(phone.page);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // From a file's detail on the phone, with the defaults (30 días, downloads on).
    await phone.page.goto(appUrl(`/private/file/${ids[0]}`));
    await phone.page.getByRole('button', { name: 'Compartir enlace' }).click();
    const dialog = phone.page.getByRole('dialog', { name: 'Compartir enlace' });
    expect(await dialog.getByLabel('Nombre').inputValue()).toBe(`${marker} playa 0`);
    await screenshot(phone.page, 'share-link-dialog-390');
    await expectAccessible(phone.page);
    await dialog.getByRole('button', { name: 'Crear enlace' }).click();
    const single = tokenOf(await dialog.getByLabel('Enlace').inputValue());
    await screenshot(phone.page, 'share-link-created-390');
    const opened = await (await signedInSeed('ADMIN')).rpc('open_share_link', { p_token: single });
    expect(opened.data).toMatchObject({ status: 'ok', allowDownloads: true, files: [{ id: ids[0] }] });
    await phone.context.close();
  });
});

describe('a collection', () => {
  it('is shared from its detail and the link follows what the collection holds', async () => {
    const marker = `enc${crypto.randomUUID().slice(0, 6)}`;
    const [first, later] = await makeImages(marker, 2);
    const { data: collection, error } = await service()
      .from('collections')
      .insert({ name: `Catálogo ${marker}` })
      .select('id')
      .single();
    expect(error).toBeNull();
    await service().from('collection_files').insert({ collection_id: collection!.id, file_id: first });
    const { page, context } = await signedInAs(browser, 'ADMIN', { landing: `/private/collection/${collection!.id}` });
    await page.getByRole('button', { name: 'Compartir enlace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Compartir enlace' });
    expect(await dialog.getByLabel('Nombre').inputValue()).toBe(`Catálogo ${marker}`);
    await dialog.getByLabel('Caducidad').selectOption('7');
    await dialog.getByRole('button', { name: 'Crear enlace' }).click();
    const token = tokenOf(await dialog.getByLabel('Enlace').inputValue());
    await context.close();

    await service().from('collection_files').insert({ collection_id: collection!.id, file_id: later });
    const guest = await visitor('desktop');
    await guest.page.goto(appUrl(`/s/${token}`));
    await guest.page.getByRole('heading', { name: `Catálogo ${marker}` }).waitFor();
    await expect.poll(() => guest.page.locator('.share-card').count()).toBe(2);
    await guest.page.getByText('2 archivos').waitFor();
    await guest.context.close();
  });
});
