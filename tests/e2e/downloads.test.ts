import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { readZip } from '../helpers/zip.ts';

/**
 * A file keeps its original name, byte for byte, wherever it is downloaded (the public page's
 * 'Descargar', the detail page's original-name link). The name was encoded twice on
 * its way to Storage and saved as 'Se%C3%B1al_%C3%B1and%C3%BA %233 %26 co.jpg'.
 *
 * And both ZIPs ('Descargar ZIP' of a selection, a public collection's 'Descargar todo (ZIP)') are written by
 * the browser from the originals' signed URLs and saved through the app's service worker: the archive holds
 * exactly the files the visitor may have, byte for byte, under names unique within it.
 */

const ORIGINAL = 'Señal_ñandú #3 & co.jpg';
let browser: Browser;
let fileId = '';
let bytes: Buffer;

async function savedName(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const saved = await readFile((await download.path())!);
  expect(saved.equals(bytes)).toBe(true);
  return download.suggestedFilename();
}

beforeAll(async () => {
  browser = await launchBrowser();
  const service = client('service_role');
  bytes = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#3a7bd5' } })
    .jpeg()
    .toBuffer();
  fileId = crypto.randomUUID();
  const objectPath = `${fileId}/original.jpg`;
  expect(
    (await service.storage.from('media').upload(objectPath, bytes, { contentType: 'image/jpeg' })).error,
  ).toBeNull();
  const { error } = await service.from('files').insert({
    id: fileId,
    file_name: 'original.jpg',
    object_path: objectPath,
    original_file_name: ORIGINAL,
    name_es: 'Señal del ñandú',
    name_en: 'Rhea sign',
    size: bytes.length,
    extension: 'jpg',
    width: 320,
    height: 200,
    mime_type: 'image/jpeg',
    processing: false,
    published: true,
    uploader_id: seedAccounts.ADMIN.id,
    uploader_email: seedAccounts.ADMIN.email,
  });
  expect(error).toBeNull();
});

afterAll(async () => {
  await browser?.close();
  const service = client('service_role');
  if (zip.collectionId) await service.from('collections').delete().eq('id', zip.collectionId);
  await service
    .from('files')
    .delete()
    .in(
      'id',
      Object.values(zip.files).map((file) => file.id),
    );
});

describe('download names', () => {
  it("saves the public page's 'Descargar' under the original name", async () => {
    const context = await browser.newContext({ locale: 'es-ES', acceptDownloads: true });
    try {
      const page = await context.newPage();
      await page.goto(appUrl(`/file/${fileId}`));
      const button = page.getByRole('link', { name: 'Descargar' });
      await button.waitFor();
      expect(await savedName(page, () => button.click())).toBe(ORIGINAL);
    } finally {
      await context.close();
    }
  });

  it("saves the detail page's original-name link under the original name", async () => {
    const { context, page } = await signedInAs(browser, 'ADMIN');
    try {
      await page.goto(appUrl(`/private/file/${fileId}`));
      const link = page.getByRole('link', { name: ORIGINAL, exact: true });
      await link.waitFor();
      await screenshot(page, 'download-detail');
      expect(await savedName(page, () => link.click())).toBe(ORIGINAL);
    } finally {
      await context.close();
    }
  });
});

/** The files of the ZIP tests: two uploaded as 'piscina.jpg', one with a slash in its name, one unpublished. */
const zip = {
  word: `zipnav${crypto.randomUUID().slice(0, 8)}`,
  collectionId: '',
  collectionName: `Descarga ${crypto.randomUUID().slice(0, 6)}`,
  files: {} as Record<'poolA' | 'poolB' | 'plan' | 'draft', { id: string; bytes: Buffer }>,
};

async function makeZipFile(originalName: string, published: boolean) {
  const service = client('service_role');
  const id = crypto.randomUUID();
  const objectPath = `${id}/original`;
  const bytes = Buffer.concat([Buffer.from(`${originalName} ${id}\n`), Buffer.alloc(200_000, id.slice(0, 2))]);
  expect(
    (await service.storage.from('media').upload(objectPath, bytes, { contentType: 'image/jpeg' })).error,
  ).toBeNull();
  const { error } = await service.from('files').insert({
    id,
    file_name: 'original',
    object_path: objectPath,
    original_file_name: originalName,
    name_es: `Archivo ${zip.word} ${id.slice(0, 4)}`,
    name_en: `File ${zip.word} ${id.slice(0, 4)}`,
    size: bytes.length,
    extension: 'jpg',
    mime_type: 'image/jpeg',
    processing: false,
    published,
    uploader_id: seedAccounts.ADMIN.id,
    uploader_email: seedAccounts.ADMIN.email,
  });
  expect(error).toBeNull();
  return { id, bytes };
}

/** The names of 'piscina.jpg' (poolA) and 'Piscina.jpg' (poolB) in an archive: the first by id keeps it. */
const poolNames = () =>
  zip.files.poolA.id < zip.files.poolB.id ? ['piscina.jpg', 'Piscina (2).jpg'] : ['piscina (2).jpg', 'Piscina.jpg'];

/** The saved archive's entries, and which original each holds (by content). */
async function savedZip(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const entries = readZip(await readFile((await download.path())!));
  const holding = (bytes: Buffer) => [...entries].filter(([, saved]) => saved.equals(bytes)).map(([name]) => name);
  return { fileName: download.suggestedFilename(), names: [...entries.keys()].sort(), holding };
}

describe('ZIP downloads written by the browser', () => {
  beforeAll(async () => {
    zip.files.poolA = await makeZipFile('piscina.jpg', true);
    zip.files.poolB = await makeZipFile('Piscina.jpg', true);
    zip.files.plan = await makeZipFile('Planos/planta.pdf', true);
    zip.files.draft = await makeZipFile('borrador.jpg', false);
    const service = client('service_role');
    const { data, error } = await service
      .from('collections')
      .insert({ name: zip.collectionName, is_public: true })
      .select('id')
      .single();
    expect(error).toBeNull();
    zip.collectionId = data!.id;
    const links = await service
      .from('collection_files')
      .insert(Object.values(zip.files).map((file) => ({ collection_id: zip.collectionId, file_id: file.id })));
    expect(links.error).toBeNull();
  });

  it("saves a public collection's 'Descargar todo (ZIP)' with its published originals only", async () => {
    const context = await browser.newContext({ locale: 'es-ES', acceptDownloads: true });
    try {
      const page = await context.newPage();
      await page.goto(appUrl(`/collection/${zip.collectionId}`));
      const button = page.getByRole('button', { name: 'Descargar todo (ZIP)' });
      await button.waitFor();
      const saved = await savedZip(page, () => button.click());
      expect(saved.fileName).toBe(`${zip.collectionName}.zip`);
      // Same name without case: the later one in the archive (pages go by id) gets a number; a slash never
      // makes a folder.
      expect(saved.names).toEqual(['Planos_planta.pdf', ...poolNames()].sort());
      expect(saved.holding(zip.files.plan.bytes)).toEqual(['Planos_planta.pdf']);
      expect(saved.holding(zip.files.poolA.bytes)).toEqual([poolNames()[0]]);
      expect(saved.holding(zip.files.poolB.bytes)).toEqual([poolNames()[1]]);
      expect(saved.holding(zip.files.draft.bytes)).toEqual([]);
      await page.getByText('ZIP descargado.').waitFor();
      await expect.poll(() => button.isEnabled()).toBe(true);
      // The worker, the download frame and the signed URLs all pass the production CSP.
      expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual(
        [],
      );
      await screenshot(page, 'public-collection-zip-done');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it("saves the files screen's 'Descargar ZIP' of a selection, unpublished files included", async () => {
    const { context, page } = await signedInAs(browser, 'ADMIN');
    try {
      await page.goto(appUrl(`/private/files?q=${zip.word}`));
      await expect.poll(async () => Number(await page.getByTestId('files-count').textContent())).toBe(4);
      await page.getByRole('button', { name: 'Seleccionar todos (4)' }).click();
      const saved = await savedZip(page, () => page.getByRole('button', { name: 'Descargar ZIP' }).click());
      expect(saved.fileName).toMatch(/^mediateca-\d{4}-\d{2}-\d{2}\.zip$/);
      expect(saved.names).toEqual(['Planos_planta.pdf', 'borrador.jpg', ...poolNames()].sort());
      expect(saved.holding(zip.files.draft.bytes)).toEqual(['borrador.jpg']);
      expect(saved.holding(zip.files.plan.bytes)).toEqual(['Planos_planta.pdf']);
      await page.getByText('ZIP descargado.').waitFor();
      await screenshot(page, 'files-zip-done');
    } finally {
      await context.close();
    }
  });

  it('asks for a page of entries again when a signed URL has expired, and still saves every file', async () => {
    const context = await browser.newContext({ locale: 'es-ES', acceptDownloads: true });
    try {
      const page = await context.newPage();
      const pages: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/functions/v1/collection-zip/')) pages.push(request.url());
      });
      // Storage's answer to a signed URL past its expiry, for the first original the archive asks for
      // (waiting an hour for a real one to expire is not a test).
      let expired = false;
      await context.route('**/storage/v1/object/sign/media/**', async (route) => {
        if (expired) return route.continue();
        expired = true;
        await route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            statusCode: '400',
            error: 'InvalidJWT',
            message: '"exp" claim timestamp check failed',
          }),
        });
      });
      await page.goto(appUrl(`/collection/${zip.collectionId}`));
      const button = page.getByRole('button', { name: 'Descargar todo (ZIP)' });
      await button.waitFor();
      const saved = await savedZip(page, () => button.click());
      expect(expired).toBe(true);
      expect(saved.names).toEqual(['Planos_planta.pdf', ...poolNames()].sort());
      expect(saved.holding(zip.files.plan.bytes)).toEqual(['Planos_planta.pdf']);
      // The first page once for the archive and once more for fresh URLs.
      expect(pages.filter((url) => !url.includes('after='))).toHaveLength(2);
    } finally {
      await context.close();
    }
  });

  it('says in Spanish why a ZIP cannot be made, and saves nothing', async () => {
    const context = await browser.newContext({ locale: 'es-ES', acceptDownloads: true });
    const service = client('service_role');
    try {
      const page = await context.newPage();
      let downloads = 0;
      page.on('download', () => (downloads += 1));
      await page.goto(appUrl(`/collection/${zip.collectionId}`));
      const button = page.getByRole('button', { name: 'Descargar todo (ZIP)' });
      await button.waitFor();
      // The collection stops being public while the visitor has the page open.
      expect(
        (await service.from('collections').update({ is_public: false }).eq('id', zip.collectionId)).error,
      ).toBeNull();
      await button.click();
      await page.getByText('Esta colección no está disponible').waitFor();
      await screenshot(page, 'public-collection-zip-error');
      await expect.poll(() => button.isEnabled()).toBe(true);
      expect(downloads).toBe(0);
    } finally {
      await service.from('collections').update({ is_public: true }).eq('id', zip.collectionId);
      await context.close();
    }
  });
});
