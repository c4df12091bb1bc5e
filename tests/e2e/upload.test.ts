import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { appUrl, expectAccessible, launchBrowser, screenshot, signIn } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { FILE_INPUT, waitForUploaded } from '../helpers/upload.ts';

/** Uploading through the browser: TUS to Storage, the file record, post-processing. */

let browser: Browser;
let page: Page;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-upload-e2e-'));
  browser = await launchBrowser();
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      console.log(`[browser ${message.type()}] ${message.text()}`);
  });
  page.on('pageerror', (error) => console.log(`[browser error] ${error.message}`));

  await page.goto(appUrl('/login'));
  await signIn(page, seedAccounts.UPLOADER.email, seedAccounts.UPLOADER.password);
  await page.waitForURL('**/private/files');
});

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('upload screen', () => {
  it('uploads an image and a PDF, ends green, and the files become ready', async () => {
    // Symbols that file systems refuse: the stored file name is sanitized, the title keeps them as written.
    const image = path.join(dir, 'Menú: «especial» 2027, #1?.jpg');
    await writeFile(
      image,
      await sharp({ create: { width: 900, height: 600, channels: 3, background: '#0084D8' } })
        .jpeg()
        .toBuffer(),
    );
    const pdf = path.join(dir, 'carta.pdf');
    await writeFile(pdf, '%PDF-1.4\n% Mediateca\n');

    await page.goto(appUrl('/private/upload'));
    await expect.poll(() => page.getByText('Arrastrar archivos aquí o').count()).toBe(1);
    await expectAccessible(page);
    await page.setInputFiles(FILE_INPUT, [image, pdf]);
    await waitForUploaded(page, 2).catch(async (error: unknown) => {
      console.log('UPLOAD ITEMS', await page.locator('.upload-page').innerText());
      throw error;
    });
    await screenshot(page, 'upload-complete');

    const service = client('service_role');
    const find = async () =>
      (
        await service
          .from('files')
          .select('id, name_es, name_en, original_file_name, processing, published, width')
          .eq('original_file_name', 'Menú_ «especial» 2027_ #1_.jpg')
      ).data ?? [];
    await expect.poll(async () => (await find()).length, { timeout: 15_000 }).toBe(1);
    const [row] = await find();
    expect(row).toMatchObject({
      name_es: 'Menú: «especial» 2027, #1?',
      name_en: 'Menú: «especial» 2027, #1?',
      published: false,
    });
    await expect.poll(async () => (await find())[0]?.processing, { timeout: 30_000 }).toBe(false);
    expect((await find())[0]?.width).toBe(900);

    await page.goto(appUrl('/private/files'));
    await expect.poll(() => page.getByText('Menú: «especial» 2027, #1?', { exact: true }).count()).toBe(1);
    // An uploader's grid has no admin controls; the processed image shows its thumbnail.
    expect(await page.getByRole('button', { name: /^Información de/ }).count()).toBe(0);
    const card = page.locator('.file-card', { hasText: 'Menú: «especial» 2027, #1?' });
    await expect.poll(() => card.locator('img.file-thumbnail').count(), { timeout: 15_000 }).toBe(1);
  }, 90_000);

  it('refuses a file over 1 GB with the Spanish message and starts nothing', async () => {
    const big = path.join(dir, 'enorme.mov');
    await writeFile(big, '');
    await truncate(big, 1_000_000_001);
    await page.goto(appUrl('/private/upload'));
    const uploadRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/upload/resumable')) uploadRequests.push(request.method());
    });
    await page.setInputFiles(FILE_INPUT, big);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('No se pueden subir archivos más grandes de 1GB: enorme.mov');
    expect(await page.locator('.upload-item').count()).toBe(0);
    expect(uploadRequests).toEqual([]);
    await screenshot(page, 'upload-too-large');
  });
});
