import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { appUrl, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * A file keeps its original name, byte for byte, wherever it is downloaded (the public page's
 * 'Descargar', the detail page's original-name link). The name was encoded twice on
 * its way to Storage and saved as 'Se%C3%B1al_%C3%B1and%C3%BA %233 %26 co.jpg'.
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
