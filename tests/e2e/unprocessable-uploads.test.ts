import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { appUrl, expectAccessible, launchBrowser, screenshot, signIn } from '../helpers/browser.ts';
import { client, stackInfo } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { FILE_INPUT, uploadItem, waitForUploaded } from '../helpers/upload.ts';

/**
 * The files people really have, through the browser: a corrupt JPEG and random bytes named .jpg upload, then
 * end on their cards as 'No se pudo procesar' with the reason (no spinner, no picture asked for), findable by
 * the filter, not publishable, deletable; a 0-byte file is refused before anything is sent; the upload screen
 * never stays 'Subiendo'; a file sent to the Papelera is never asked for again by the grid.
 */

let browser: Browser;
let page: Page;
let dir: string;
/** Every Storage answer of 400 or more the page received, as "status url". */
const storageRefusals: string[] = [];
/** Every other refusal (PostgREST's 406 for a row that is gone, say), as "status method url". */
const apiRefusals: string[] = [];

const REASONS = {
  unreadable: 'La imagen está dañada y no se puede leer. Sube una copia sana del archivo.',
  notImage: 'El contenido del archivo no es una imagen JPEG ni PNG, aunque su nombre lo indique.',
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-unprocessable-e2e-'));
  browser = await launchBrowser();
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[browser error] ${error.message}`));
  page.on('response', (response) => {
    if (response.url().includes('/storage/v1/') && response.status() >= 400) {
      storageRefusals.push(`${response.status()} ${response.url()}`);
    } else if (response.url().includes('/rest/v1/') && response.status() >= 400) {
      apiRefusals.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    }
  });
  await page.goto(appUrl('/login'));
  await signIn(page, seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  await page.waitForURL('**/private/files');
});

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

async function fileIdOf(originalName: string): Promise<string> {
  const { data, error } = await client('service_role')
    .from('files')
    .select('id')
    .eq('original_file_name', originalName)
    .single();
  if (error) throw error;
  return data.id as string;
}

describe('uploads that cannot be processed', () => {
  it('upload, end as "No se pudo procesar" with the reason, and a 0-byte file is refused before sending', async () => {
    const good = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0084D8' } })
      .jpeg()
      .toBuffer();
    const corrupt = path.join(dir, 'piscina-dañada.jpg');
    await writeFile(corrupt, Buffer.concat([good.subarray(0, 20), Buffer.alloc(4096, 0x5a)]));
    const noise = path.join(dir, 'ruido-aleatorio.jpg');
    await writeFile(noise, crypto.getRandomValues(new Uint8Array(8192)));
    const empty = path.join(dir, 'vacío.txt');
    await writeFile(empty, '');

    await page.goto(appUrl('/private/upload'));
    await expect.poll(() => page.getByText('Arrastrar archivos aquí o').count()).toBe(1);
    await page.setInputFiles(FILE_INPUT, [corrupt, noise, empty]);
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'No se pueden subir archivos vacíos (0 bytes)' }).count())
      .toBe(1);
    expect(await page.getByRole('alert').filter({ hasText: 'vacío.txt' }).count()).toBe(1);
    await waitForUploaded(page, 2);
    // Nothing is on its way: neither the upload list (cleared) nor the top bar says it is uploading.
    await expect.poll(() => page.locator('.upload-item').count()).toBe(0);
    expect(await page.getByRole('status', { name: /Subiendo/ }).count()).toBe(0);
    await screenshot(page, 'upload-unprocessable-and-empty');
    await expectAccessible(page);

    // The grid, filtered to what could not be processed: both cards say why, within a minute.
    await page.goto(appUrl('/private/files?processing=failed'));
    const corruptCard = page.locator('.file-card', { hasText: 'piscina-dañada' });
    const noiseCard = page.locator('.file-card', { hasText: 'ruido-aleatorio' });
    await expect.poll(() => corruptCard.getByText(REASONS.unreadable).count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => noiseCard.getByText(REASONS.notImage).count(), { timeout: 60_000 }).toBe(1);
    expect(await corruptCard.getByText('No se pudo procesar', { exact: true }).count()).toBe(1);
    expect(await page.locator('.file-card .spinner').count()).toBe(0);
    await screenshot(page, 'files-processing-failed');
    await expectAccessible(page);
    const corruptId = await fileIdOf('piscina-dañada.jpg');
    // No picture of a file that has none was asked for.
    expect(storageRefusals.filter((refusal) => refusal.includes(corruptId))).toEqual([]);

    // Its detail says the same, offers no 'Activar' and deletes it at once.
    await corruptCard.getByRole('link').first().click();
    await page.waitForURL(`**/private/file/${corruptId}`);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: REASONS.unreadable }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Activar' }).count()).toBe(0);
    await screenshot(page, 'file-detail-processing-failed');
    await page.locator('.file-actions').getByRole('button', { name: 'Borrar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.waitForURL('**/private/files');
    await expect
      .poll(async () => (await client('service_role').from('files').select('id').eq('id', corruptId)).data?.length)
      .toBe(0);
  }, 150_000);

  it("refuses to publish it in bulk, with the database's Spanish sentence", async () => {
    await page.goto(appUrl('/private/files?processing=failed'));
    const noiseCard = page.locator('.file-card', { hasText: 'ruido-aleatorio' });
    await expect.poll(() => noiseCard.count()).toBe(1);
    await noiseCard.hover();
    await noiseCard.getByRole('checkbox').click();
    const bar = page.getByRole('region', { name: 'Archivos seleccionados' });
    await bar.getByRole('button', { name: 'Activar' }).click();
    await expect
      .poll(() =>
        page
          .getByText(
            'No se puede publicar «ruido-aleatorio» porque no se pudo procesar. Sustituye el archivo para poder publicarlo.',
          )
          .count(),
      )
      .toBeGreaterThan(0);
  });
});

describe('a file sent to the Papelera', () => {
  it('is never asked for again by the grid', async () => {
    const picture = path.join(dir, 'terraza-para-borrar.jpg');
    await writeFile(
      picture,
      await sharp({ create: { width: 320, height: 240, channels: 3, background: '#2a9d8f' } })
        .jpeg()
        .toBuffer(),
    );
    await page.goto(appUrl('/private/upload'));
    await page.setInputFiles(FILE_INPUT, [picture]);
    await waitForUploaded(page, 1);
    const id = await fileIdOf('terraza-para-borrar.jpg');

    await page.goto(appUrl('/private/files?q=terraza-para-borrar'));
    const card = page.locator('.file-card', { hasText: 'terraza-para-borrar' });
    await expect.poll(() => card.locator('img.file-thumbnail').count(), { timeout: 30_000 }).toBe(1);
    await card.getByRole('link').first().click();
    await page.waitForURL(`**/private/file/${id}`);
    await page.locator('.file-actions').getByRole('button', { name: 'Borrar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.waitForURL('**/private/files');
    // Back on the grid (and again after its refetch): the file is gone and nothing asked Storage for it.
    await page.goto(appUrl('/private/files?q=terraza-para-borrar'));
    await expect.poll(() => page.getByTestId('files-count').innerText(), { timeout: 15_000 }).toBe('0');
    expect(storageRefusals.filter((refusal) => refusal.includes(id))).toEqual([]);
    // A read of the file that is gone may be refused once; it is never asked again (no retry of a 4xx).
    const refusals = apiRefusals.filter((refusal) => refusal.includes(id));
    expect(refusals.length).toBe(new Set(refusals).size);
  });
});

describe('an upload Storage refuses outright', () => {
  it("says why in Spanish, offers no 'Reintentar' and does not stay 'Subiendo'", async () => {
    const refused = path.join(dir, 'rechazada.pdf');
    await writeFile(refused, '%PDF-1.4\n% rechazada\n');
    // The upload is created without the person's session (the anon key), so Storage itself refuses the file
    // with 403, as its RLS would refuse anyone without the right to write there.
    await page.route('**/storage/v1/upload/resumable**', (route) =>
      route.request().method() === 'POST'
        ? route.continue({
            headers: { ...route.request().headers(), authorization: `Bearer ${stackInfo().anonKey}` },
          })
        : route.continue(),
    );
    try {
      await page.goto(appUrl('/private/upload'));
      await page.setInputFiles(FILE_INPUT, [refused]);
      // The file's line says why, in Spanish, and its bar turns red; trying again could not help.
      const item = uploadItem(page, 'rechazada.pdf');
      await expect
        .poll(() => item.getByRole('alert').textContent())
        .toBe('No tienes permiso para subir este archivo.')
        .catch(async (error: unknown) => {
          await screenshot(page, 'upload-refused-by-storage-failed');
          console.log('UPLOAD SCREEN', await page.locator('main').innerText());
          throw error;
        });
      expect(await item.getAttribute('class')).toContain('is-error');
      expect(await page.getByRole('button', { name: /Reintentar/ }).count()).toBe(0);
      expect(await page.getByText(/tus:|response code|row-level security/).count()).toBe(0);
      // The toast says the same, with the file's name, not a vague 'Algo salió mal'.
      await expect
        .poll(() =>
          page.getByText('«rechazada.pdf» no se pudo subir: No tienes permiso para subir este archivo.').count(),
        )
        .toBe(1);
      expect(await page.getByText('Algo salió mal').count()).toBe(0);
      expect(await page.getByRole('status', { name: /Subiendo/ }).count()).toBe(0);
      await screenshot(page, 'upload-refused-by-storage');
      await item.getByRole('button', { name: 'Quitar: rechazada.pdf' }).click();
      await expect.poll(() => item.count()).toBe(0);
    } finally {
      await page.unroute('**/storage/v1/upload/resumable**');
    }
  });
});
