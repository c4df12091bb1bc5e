import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import sharp from 'sharp';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { FILE_INPUT, FINISHED_ITEM } from '../helpers/upload.ts';

/**
 * The upload screen on Uppy's Dashboard: many files at once, thumbnails only for short lists, a
 * new batch clearing the finished one, pause and resume without sending bytes twice, and 'Ya existe' for
 * bytes the library already has. Screenshots at 1440 and 390 px.
 */

const MiB = 1024 * 1024;
const CHUNK = 6 * MiB;
const RESUMABLE = '**/storage/v1/upload/resumable/**';

let browser: Browser;
let dir: string;
const service = client('service_role');
const tag = () => crypto.randomUUID().slice(0, 6);

async function writeImage(name: string, background: string) {
  const file = path.join(dir, name);
  await writeFile(
    file,
    await sharp({ create: { width: 320, height: 240, channels: 3, background } })
      .png()
      .toBuffer(),
  );
  return file;
}

const colour = (index: number) => `#${((index * 0x2f1b3d + 0x103050) & 0xffffff).toString(16).padStart(6, '0')}`;

async function rowsNamed(names: string[]) {
  const { data, error } = await service
    .from('files')
    .select('id, original_file_name, processing, checksum, duplicate_of')
    .in('original_file_name', names);
  if (error) throw error;
  return data;
}

/** Holds the n-th PATCH of the page's uploads until released: an upload deterministically in flight. */
async function holdPatch(page: Page, n: number) {
  let patches = 0;
  let reached: () => void = () => {};
  let release: (how: 'continue' | 'abort') => void = () => {};
  const isHeld = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<'continue' | 'abort'>((resolve) => (release = resolve));
  await page.route(RESUMABLE, async (route: Route) => {
    if (route.request().method() === 'PATCH' && ++patches === n) {
      reached();
      const how = await released;
      // A paused upload aborted this request in the page: it must not reach the server late.
      await (how === 'continue' ? route.continue() : route.abort('aborted')).catch(() => undefined);
      return;
    }
    await route.continue();
  });
  return {
    isHeld,
    release: async (how: 'continue' | 'abort' = 'continue') => {
      release(how);
      await page.unroute(RESUMABLE);
    },
  };
}

const statusBar = (page: Page) => page.locator('.uppy-StatusBar');

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-dashboard-'));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('upload screen with the Dashboard', () => {
  it('shows thumbnails for a short list, and a new batch replaces the finished one', async () => {
    const { context, page } = await signedInAs(browser, 'UPLOADER', { landing: '/private/upload' });
    await page.getByText('Arrastrar archivos aquí o').waitFor();
    expect(await page.getByRole('button', { name: 'Seleccionar archivos' }).count()).toBe(1);
    await screenshot(page, 'upload-empty-desktop');
    await expectAccessible(page);

    const first = [
      await writeImage(`primero-${tag()}.png`, '#c0392b'),
      await writeImage(`segundo-${tag()}.jpg`, '#2e86c1'),
    ];
    await page.setInputFiles(FILE_INPUT, first);
    await expect.poll(() => page.locator(FINISHED_ITEM).count(), { timeout: 30_000 }).toBe(2);
    await statusBar(page).getByText('Completado').first().waitFor();
    expect(await page.locator('.uppy-Dashboard-Item-previewImg').count()).toBe(2);
    await screenshot(page, 'upload-done-desktop');
    await expectAccessible(page);

    const next = [
      await writeImage(`tercero-${tag()}.png`, '#27ae60'),
      await writeImage(`cuarto-${tag()}.png`, '#8e44ad'),
    ];
    // With files listed, the Dashboard's drop zone (and its file input) is behind 'Agregar más'.
    await page.getByRole('button', { name: 'Agregar más archivos' }).click();
    await page.setInputFiles(FILE_INPUT, next);
    await expect.poll(() => page.locator(FINISHED_ITEM).count(), { timeout: 30_000 }).toBe(2);
    const listed = await page.locator('.uppy-Dashboard-Item-name').allTextContents();
    expect(listed.sort()).toEqual(next.map((file) => path.basename(file)).sort());
    await context.close();
  }, 90_000);

  it("counts the batch in the header: 'Subiendo 2 de 3' and '1 de 3 completados'", async () => {
    // Uppy's header counted the files not finished yet ('Subiendo 41 archivos' with 45 queued).
    const { context, page } = await signedInAs(browser, 'UPLOADER', { landing: '/private/upload' });
    await page.getByText('Arrastrar archivos aquí o').waitFor();
    const batch = tag();
    const files = await Promise.all(
      [1, 2, 3].map((index) => writeImage(`cuenta-${batch}-${index}.png`, colour(index + 40))),
    );
    const held = await holdPatch(page, 2);
    await page.setInputFiles(FILE_INPUT, files);
    await held.isHeld;
    const title = page.locator('.uppy-DashboardContent-title');
    await expect.poll(() => title.textContent()).toBe('Subiendo 2 de 3');
    await statusBar(page).getByText('1 de 3 completados').waitFor();
    await screenshot(page, 'upload-counting-desktop');
    await held.release();
    await expect.poll(() => page.locator(FINISHED_ITEM).count(), { timeout: 30_000 }).toBe(3);
    await context.close();
  }, 90_000);

  it('uploads 12 files at once, without thumbnails, and records all 12', async () => {
    const { context, page } = await signedInAs(browser, 'UPLOADER', { landing: '/private/upload' });
    await page.getByText('Arrastrar archivos aquí o').waitFor();
    const batch = tag();
    const files = await Promise.all(
      Array.from({ length: 12 }, (_, index) => writeImage(`lote-${batch}-${index + 1}.png`, colour(index))),
    );
    await page.setInputFiles(FILE_INPUT, files);
    await statusBar(page).getByText('Completado').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('.uppy-Dashboard-Item').count()).toBeGreaterThan(0);
    expect(await page.locator('.uppy-Dashboard-Item-previewImg').count()).toBe(0);
    const names = files.map((file) => path.basename(file));
    await expect.poll(async () => (await rowsNamed(names)).length, { timeout: 15_000 }).toBe(12);
    await expect
      .poll(async () => (await rowsNamed(names)).filter((row) => !row.processing).length, { timeout: 60_000 })
      .toBe(12);
    await context.close();
  }, 120_000);

  it('pauses and resumes a 200 MB upload without sending any byte twice beyond one chunk', async () => {
    const name = `pausa-${tag()}.bin`;
    const bytes = randomBytes(200 * MiB);
    await writeFile(path.join(dir, name), bytes);
    const { context, page } = await signedInAs(browser, 'UPLOADER', { landing: '/private/upload' });
    await page.getByText('Arrastrar archivos aquí o').waitFor();
    const creations: string[] = [];
    const offsets: number[] = [];
    page.on('request', (request) => {
      if (!request.url().includes('/upload/resumable')) return;
      if (request.method() === 'POST') creations.push(request.url());
      if (request.method() === 'PATCH') offsets.push(Number(request.headers()['upload-offset']));
    });
    const held = await holdPatch(page, 3);
    await page.setInputFiles(FILE_INPUT, path.join(dir, name));
    await held.isHeld;
    await statusBar(page).getByText('Subiendo').first().waitFor();
    const topBarSpinner = page.getByRole('link', { name: /Subir Archivos/ }).getByText('Subiendo archivos');
    expect(await topBarSpinner.count()).toBe(1);
    await screenshot(page, 'upload-in-progress-desktop');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Pausar subida', exact: true }).click();
    await page.getByRole('button', { name: 'Reanudar subida', exact: true }).waitFor();
    await statusBar(page).getByText('En pausa').first().waitFor();
    // A paused upload sends nothing: the top bar stops spinning until it is resumed.
    await expect.poll(() => topBarSpinner.count()).toBe(0);
    expect(await page.locator(FINISHED_ITEM).count()).toBe(0);
    await held.release('abort');

    await page.getByRole('button', { name: 'Reanudar subida', exact: true }).click();
    await expect.poll(() => page.locator(FINISHED_ITEM).count(), { timeout: 120_000 }).toBe(1);
    await expect.poll(() => topBarSpinner.count()).toBe(0);
    // One upload, continued from the server's offset: every PATCH sends one chunk from its offset.
    expect(creations).toHaveLength(1);
    const sent = offsets.reduce((total, offset) => total + Math.min(CHUNK, bytes.length - offset), 0);
    expect(sent).toBeGreaterThanOrEqual(bytes.length);
    expect(sent).toBeLessThanOrEqual(bytes.length + CHUNK);
    const { data: row } = await service.from('files').select('object_path').eq('original_file_name', name).single();
    const stored = await service.storage.from('media').download(row!.object_path);
    expect(
      createHash('sha256')
        .update(Buffer.from(await stored.data!.arrayBuffer()))
        .digest('hex'),
    ).toBe(createHash('sha256').update(bytes).digest('hex'));
    await context.close();
  }, 240_000);

  it("says 'Ya existe' with a link to the earlier file when the same bytes are uploaded again", async () => {
    const bytes = await sharp({ create: { width: 200, height: 150, channels: 3, background: colour(99) } })
      .composite([{ input: randomBytes(64 * 48 * 3), raw: { width: 64, height: 48, channels: 3 } }])
      .png()
      .toBuffer();
    const originalName = `original-${tag()}.png`;
    const copyName = `copia-${tag()}.png`;
    await writeFile(path.join(dir, originalName), bytes);
    await writeFile(path.join(dir, copyName), bytes);
    const { context, page } = await signedInAs(browser, 'UPLOADER', { landing: '/private/upload' });
    await page.getByText('Arrastrar archivos aquí o').waitFor();

    await page.setInputFiles(FILE_INPUT, path.join(dir, originalName));
    await expect.poll(() => page.locator(FINISHED_ITEM).count(), { timeout: 30_000 }).toBe(1);
    // The earlier file must have its checksum before the copy is processed, or the copy would be the earlier.
    await expect
      .poll(async () => (await rowsNamed([originalName]))[0]?.checksum ?? null, { timeout: 30_000 })
      .not.toBeNull();
    const [original] = await rowsNamed([originalName]);
    expect(await page.getByText('Ya existe', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Agregar más archivos' }).click();
    await page.setInputFiles(FILE_INPUT, path.join(dir, copyName));
    const duplicates = page.getByRole('region', { name: 'Archivos repetidos' });
    await duplicates.getByText('Ya existe', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await duplicates.getByRole('listitem').allTextContents()).toEqual([
      `${copyName} Ya existe Ver el archivo existente`,
    ]);
    const [copy] = await rowsNamed([copyName]);
    expect(copy?.duplicate_of).toBe(original!.id);
    await screenshot(page, 'upload-already-exists-desktop');
    await expectAccessible(page);
    await duplicates.getByRole('link', { name: 'Ver el archivo existente' }).click();
    await page.waitForURL(appUrl(`/private/file/${original!.id}`));
    await context.close();
  }, 120_000);

  it('works on a phone: empty, in progress and done', async () => {
    const { context, page } = await signedInAs(browser, 'UPLOADER', { viewport: 'phone', landing: '/private/upload' });
    await page.getByText('Arrastrar archivos aquí o').waitFor();
    await screenshot(page, 'upload-empty-phone');
    await expectAccessible(page);
    const files = [
      await writeImage(`movil-${tag()}-uno.png`, '#d35400'),
      await writeImage(`movil-${tag()}-dos.png`, '#16a085'),
      path.join(dir, `movil-${tag()}-grande.bin`),
    ];
    await writeFile(files[2]!, randomBytes(15 * MiB));
    const held = await holdPatch(page, 3);
    await page.setInputFiles(FILE_INPUT, files);
    await held.isHeld;
    await screenshot(page, 'upload-in-progress-phone');
    await expectAccessible(page);
    await held.release();
    await expect.poll(() => page.locator(FINISHED_ITEM).count(), { timeout: 60_000 }).toBe(3);
    await statusBar(page).getByText('Completado').first().waitFor();
    await screenshot(page, 'upload-done-phone');
    await expectAccessible(page);
    await context.close();
  }, 120_000);
});
