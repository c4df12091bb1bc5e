import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs, viewports } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { readZip } from '../helpers/zip.ts';

/**
 * Colecciones (admin) and the public pages behind shared links: an admin builds a collection
 * from the files grid and shares it; a signed-out visitor in a fresh browser context sees only what is
 * published, downloads the original, and gets 'no disponible' once the collection is private.
 */

let browser: Browser;
let admin: { context: BrowserContext; page: Page };
let service: SupabaseClient;
const marker = `col${crypto.randomUUID().slice(0, 6)}`;
const names = {
  collection: `${marker} Verano`,
  renamed: `${marker} Verano 2027`,
};

interface Fixture {
  id: string;
  nameEs: string;
  nameEn: string;
  bytes: Buffer;
}
const files: Record<'pool' | 'suite' | 'draft' | 'rates', Fixture> = {} as never;
let collectionId = '';

/** A landscape picture with a gradient, so screenshots show something like a photo. */
async function picture(from: string, to: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="1600" height="1000" fill="url(#g)"/><circle cx="1200" cy="300" r="140" fill="#ffe9a8"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

async function makeFile(
  key: keyof typeof files,
  nameEs: string,
  nameEn: string,
  options: { published: boolean; bytes: Buffer; extension: 'jpg' | 'pdf' },
) {
  const id = crypto.randomUUID();
  const objectPath = `${id}/original.${options.extension}`;
  const upload = await service.storage.from('media').upload(objectPath, options.bytes, {
    contentType: options.extension === 'jpg' ? 'image/jpeg' : 'application/pdf',
  });
  expect(upload.error).toBeNull();
  const { error } = await service.from('files').insert({
    id,
    file_name: `original.${options.extension}`,
    object_path: objectPath,
    original_file_name: `${key}.${options.extension}`,
    name_es: `${marker} ${nameEs}`,
    name_en: `${marker} ${nameEn}`,
    description_es: `Descripción de ${nameEs.toLowerCase()}.`,
    description_en: `About the ${nameEn.toLowerCase()}.`,
    size: options.bytes.length,
    uploader_id: seedAccounts.ADMIN.id,
    uploader_email: seedAccounts.ADMIN.email,
    extension: options.extension,
    processing: false,
    published: options.published,
    ...(options.extension === 'jpg' ? { width: 1600, height: 1000, mime_type: 'image/jpeg' } : {}),
  });
  expect(error).toBeNull();
  files[key] = { id, nameEs: `${marker} ${nameEs}`, nameEn: `${marker} ${nameEn}`, bytes: options.bytes };
}

async function collectionRow() {
  const { data, error } = await service.from('collections').select('*').eq('id', collectionId).maybeSingle();
  expect(error).toBeNull();
  return data as { name: string; is_public: boolean; file_count: number } | null;
}

/** A signed-out visitor: a brand-new context with no session. */
async function visitor(viewport: keyof typeof viewports = 'desktop') {
  const context = await browser.newContext({ viewport: viewports[viewport], acceptDownloads: true });
  const page = await context.newPage();
  return { context, page };
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

beforeAll(async () => {
  service = client('service_role');
  await makeFile('pool', 'Piscina al atardecer', 'Pool at sunset', {
    published: true,
    extension: 'jpg',
    bytes: await picture('#0b6fa4', '#f39a5a'),
  });
  await makeFile('suite', 'Suite con vistas', 'Suite with a view', {
    published: true,
    extension: 'jpg',
    bytes: await picture('#3d5a80', '#98c1d9'),
  });
  await makeFile('draft', 'Borrador interno', 'Internal draft', {
    published: false,
    extension: 'jpg',
    bytes: await picture('#444444', '#999999'),
  });
  await makeFile('rates', 'Tarifas 2027', 'Rates 2027', {
    published: true,
    extension: 'pdf',
    bytes: Buffer.from('%PDF-1.4\n% tarifas\n'),
  });
  browser = await launchBrowser();
  admin = await signedInAs(browser, 'ADMIN', { landing: '/private/collections' });
});

afterAll(async () => {
  await browser?.close();
  await service.from('files').delete().like('name_es', `${marker}%`);
  await service.from('collections').delete().like('name', `${marker}%`);
});

describe('Colecciones (admin)', () => {
  it('creates a collection by name, refusing an empty one', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Crear colección' }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Todos los campos son obligatorios' }).count())
      .toBe(1);

    await page.getByLabel('Nombre de la nueva colección').fill(names.collection);
    await page.getByRole('button', { name: 'Crear colección' }).click();
    const row = page.getByRole('listitem', { name: names.collection });
    await row.waitFor();
    expect(await row.textContent()).toContain('0 archivos');
    // The form empties once the mutation has answered, which may be a moment after the list shows the row.
    await expect.poll(() => page.getByLabel('Nombre de la nueva colección').inputValue()).toBe('');
    const { data } = await service.from('collections').select('id, is_public').eq('name', names.collection).single();
    collectionId = data!.id as string;
    expect(data!.is_public).toBe(false);
  });

  it('is filled from the files grid and shows the count from the database', async () => {
    const { page } = admin;
    await page.goto(appUrl(`/private/files?q=${marker}`));
    await page.getByRole('button', { name: 'Seleccionar todos (4)' }).click();
    await page.getByRole('button', { name: 'Añadir a colección...' }).click();
    await page.getByRole('menuitem', { name: names.collection }).click();
    await page.getByText(`4 archivos añadidos a «${names.collection}».`).waitFor();
    await expect.poll(async () => (await collectionRow())?.file_count).toBe(4);

    await page.goto(appUrl('/private/collections'));
    const row = page.getByRole('listitem', { name: names.collection });
    await expect.poll(() => row.textContent()).toContain('4 archivos');
    expect(await row.getByRole('link', { name: new RegExp(`/collection/${collectionId}$`) }).count()).toBe(1);
    await screenshot(page, 'collections-desktop');
    await expectAccessible(page);
  });

  it('renames, turns public, links to the filtered files screen and removes a file', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: names.collection, exact: true }).click();
    await page.waitForURL(`**/private/collection/${collectionId}`);
    await expect.poll(() => heading(page).textContent()).toBe(names.collection);
    await expect.poll(() => page.locator('.collection-file').count()).toBe(4);

    await page.getByLabel('Nombre', { exact: true }).fill(names.renamed);
    await page.getByRole('button', { name: 'Guardar nombre' }).click();
    await expect.poll(() => heading(page).textContent()).toBe(names.renamed);
    expect((await collectionRow())?.name).toBe(names.renamed);

    await page.getByLabel('Colección pública').check();
    await expect.poll(async () => (await collectionRow())?.is_public).toBe(true);
    await page.getByText('La colección es pública').first().waitFor();

    await page.getByRole('button', { name: `Quitar ${files.rates.nameEs} de la colección` }).click();
    await expect.poll(() => page.locator('.collection-file').count()).toBe(3);
    await expect.poll(() => page.getByText('3 archivos').count()).toBe(1);
    expect((await collectionRow())?.file_count).toBe(3);
    expect((await service.from('files').select('id').eq('id', files.rates.id)).data).toHaveLength(1);

    await screenshot(page, 'collection-detail-desktop');
    await expectAccessible(page);

    await page.getByRole('link', { name: /Ver en Archivos/ }).click();
    await page.waitForURL(`**/private/files?collection=${collectionId}`);
    await expect.poll(async () => Number(await page.getByTestId('files-count').textContent())).toBe(3);
  });

  it('finds a collection by name with the search box', async () => {
    const { page } = admin;
    await page.goto(appUrl('/private/collections'));
    await page.getByLabel('Buscar colección').fill(names.renamed.slice(0, 12));
    await page.getByRole('listitem', { name: names.renamed }).waitFor();
    expect(await page.getByRole('listitem', { name: 'Material para agencias' }).count()).toBe(0);
    await page.getByLabel('Buscar colección').fill('ninguna-coincide');
    await page.getByText('Ninguna colección coincide con «ninguna-coincide».').waitFor();
    await screenshot(page, 'collections-search');
  });

  it('looks right on a phone', async () => {
    const phone = await signedInAs(browser, 'ADMIN', { viewport: 'phone', landing: '/private/collections' });
    await phone.page.getByRole('listitem', { name: names.renamed }).waitFor();
    await screenshot(phone.page, 'collections-phone');
    await phone.page.goto(appUrl(`/private/collection/${collectionId}`));
    await expect.poll(() => phone.page.locator('.collection-file img').count()).toBe(3);
    await screenshot(phone.page, 'collection-detail-phone');
    await expectAccessible(phone.page);
    await phone.context.close();
  });
});

describe('public pages (signed out)', () => {
  it('shows a public collection with only its published files, in Spanish or English, and its ZIP', async () => {
    const { context, page } = await visitor();
    await page.goto(appUrl(`/collection/${collectionId}`));
    await expect.poll(() => heading(page).textContent()).toBe(names.renamed);
    const cards = page.locator('.public-card');
    await expect.poll(() => cards.count()).toBe(2);
    expect((await cards.allTextContents()).sort()).toEqual([files.pool.nameEs, files.suite.nameEs].sort());
    expect(await page.getByText(files.draft.nameEs).count()).toBe(0);
    expect(await page.getByText('2 archivos').count()).toBe(1);
    await expect
      .poll(() =>
        page
          .locator('.public-card img')
          .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)),
      )
      .toBe(true);
    await screenshot(page, 'public-collection-desktop');
    await expectAccessible(page);

    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descargar todo (ZIP)' }).click(),
    ]);
    expect(zip.suggestedFilename()).toBe(`${names.renamed}.zip`);
    const entries = readZip(await readFile((await zip.path())!));
    expect([...entries.keys()].sort()).toEqual(['pool.jpg', 'suite.jpg']);
    expect(entries.get('pool.jpg')!.equals(files.pool.bytes)).toBe(true);
    expect(entries.get('suite.jpg')!.equals(files.suite.bytes)).toBe(true);

    await page.getByRole('button', { name: 'English' }).click();
    await page.waitForURL(/lang=en/);
    await expect.poll(() => cards.allTextContents()).toContain(files.pool.nameEn);
    expect(await page.getByText('2 files').count()).toBe(1);
    await page.getByRole('button', { name: 'Español' }).click();
    await expect.poll(() => cards.allTextContents()).toContain(files.pool.nameEs);
    await context.close();
  });

  it('opens a file from the collection, shows its preview and downloads the original byte for byte', async () => {
    const { context, page } = await visitor();
    await page.goto(appUrl(`/collection/${collectionId}`));
    await page.getByRole('link', { name: files.pool.nameEs }).click();
    await page.waitForURL(`**/file/${files.pool.id}`);
    await expect.poll(() => heading(page).textContent()).toBe(files.pool.nameEs);
    expect(await page.getByText(`Descripción de piscina al atardecer.`).count()).toBe(1);
    const preview = page.getByRole('img', { name: files.pool.nameEs });
    await expect.poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: `← ${names.renamed}` }).count()).toBe(1);
    expect(await page.locator('body').textContent()).not.toContain(seedAccounts.ADMIN.email);
    await screenshot(page, 'public-file-desktop');
    await expectAccessible(page);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Descargar' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('pool.jpg');
    const saved = await readFile((await download.path())!);
    expect(saved.equals(files.pool.bytes)).toBe(true);

    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => heading(page).textContent()).toBe(files.pool.nameEn);
    expect(await page.getByRole('link', { name: 'Download' }).count()).toBe(1);
    await context.close();
  });

  it('looks right on a phone', async () => {
    const { context, page } = await visitor('phone');
    await page.goto(appUrl(`/collection/${collectionId}`));
    await expect.poll(() => page.locator('.public-card').count()).toBe(2);
    await expect
      .poll(() =>
        page
          .locator('.public-card img')
          .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)),
      )
      .toBe(true);
    await screenshot(page, 'public-collection-phone');
    await expectAccessible(page);
    await page.goto(appUrl(`/file/${files.suite.id}`));
    await expect
      .poll(() =>
        page.getByRole('img', { name: files.suite.nameEs }).evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    await screenshot(page, 'public-file-phone');
    await expectAccessible(page);
    await page.goto(appUrl(`/file/${files.rates.id}`));
    await expect.poll(() => heading(page).textContent()).toBe(files.rates.nameEs);
    expect(await page.locator('.public-type-tile').textContent()).toBe('PDF');
    await screenshot(page, 'public-document-phone');
    await context.close();
  });

  it("shows 'no disponible' for an unpublished, unknown or malformed file id, the same in each case", async () => {
    const { context, page } = await visitor();
    for (const id of [files.draft.id, crypto.randomUUID(), 'no-es-un-id']) {
      await page.goto(appUrl(`/file/${id}`));
      await expect.poll(() => heading(page).textContent()).toBe('Este archivo no está disponible');
      expect(await page.getByRole('link', { name: 'Descargar' }).count()).toBe(0);
    }
    await screenshot(page, 'public-file-unavailable-desktop');
    await expectAccessible(page);
    await context.close();
  });

  it('follows an unpublish and a collection made private', async () => {
    const { context, page } = await visitor();
    await service.from('files').update({ published: false }).eq('id', files.pool.id);
    await page.goto(appUrl(`/collection/${collectionId}`));
    await expect.poll(() => page.locator('.public-card').allTextContents()).toEqual([files.suite.nameEs]);

    await admin.page.goto(appUrl('/private/collections'));
    const row = admin.page.getByRole('listitem', { name: names.renamed });
    await row.getByLabel('Colección pública').uncheck();
    await expect.poll(async () => (await collectionRow())?.is_public).toBe(false);

    await page.reload();
    await expect.poll(() => heading(page).textContent()).toBe('Esta colección no está disponible');
    expect(await page.getByText(files.suite.nameEs).count()).toBe(0);
    await page.goto(appUrl(`/collection/${crypto.randomUUID()}`));
    await expect.poll(() => heading(page).textContent()).toBe('Esta colección no está disponible');
    await context.close();
  });

  it("opens the file detail's copied URL as the public file page", async () => {
    await admin.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await admin.page.goto(appUrl(`/private/file/${files.suite.id}`));
    await admin.page.getByRole('button', { name: 'Copiar URL' }).click();
    const copied = await admin.page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(appUrl(`/file/${files.suite.id}`));

    const { context, page } = await visitor();
    await page.goto(copied);
    await expect.poll(() => heading(page).textContent()).toBe(files.suite.nameEs);
    await context.close();
  });
});

describe('deleting a collection', () => {
  it('asks with its confirmation sentence, removes the collection and its links, and keeps the files', async () => {
    const { page } = admin;
    await page.goto(appUrl('/private/collections'));
    const row = page.getByRole('listitem', { name: names.renamed });
    // Secondary actions sit in the row's menu; Borrar still asks first.
    await row.getByRole('button', { name: `Acciones de ${names.renamed}` }).click();
    await page.getByRole('menuitem', { name: 'Borrar' }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.textContent()).toContain(
      `¿Seguro que deseas borrar la colección «${names.renamed}»? Esta acción no se puede deshacer.`,
    );
    await screenshot(page, 'collection-delete-dialog');
    await dialog.getByRole('button', { name: 'Borrar' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await collectionRow()).toBeNull();
    expect((await service.from('collection_files').select('file_id').eq('collection_id', collectionId)).data).toEqual(
      [],
    );
    const kept = await service.from('files').select('id').like('name_es', `${marker}%`);
    expect(kept.data).toHaveLength(4);
  });

  it("from the detail screen: 'Borrar colección' asks, then returns to the list without it", async () => {
    const { page } = admin;
    const name = `${marker} Para borrar`;
    const { data, error } = await service.from('collections').insert({ name }).select('id').single();
    expect(error).toBeNull();
    await page.goto(appUrl(`/private/collection/${data!.id}`));
    await expect.poll(() => heading(page).textContent()).toBe(name);
    await page.getByRole('button', { name: 'Borrar colección' }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.textContent()).toContain(`¿Seguro que deseas borrar la colección «${name}»?`);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    expect((await service.from('collections').select('id').eq('id', data!.id)).data).toHaveLength(1);

    await page.getByRole('button', { name: 'Borrar colección' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.waitForURL('**/private/collections');
    await page.getByText('Colección borrada').first().waitFor();
    expect(await page.getByRole('listitem', { name }).count()).toBe(0);
    expect((await service.from('collections').select('id').eq('id', data!.id)).data).toEqual([]);
  });
});
