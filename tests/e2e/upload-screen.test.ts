import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page, Route } from 'playwright-core';
import sharp from 'sharp';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client, stackInfo } from '../helpers/clients.ts';
import { FILE_INPUT, uploadItem, uploadedToast, waitForUploaded } from '../helpers/upload.ts';

/**
 * The upload screen, drawn by the app: each file with its own progress bar (brand while it goes, green when
 * done, red on error), thumbnails only for short lists, the list cleared once the batch is over with a toast
 * that links to the files, a copy of a library file caught before any of its bytes are sent, and Spanish
 * refusals. At 1440 and 390 px.
 */

const MiB = 1024 * 1024;
const CHUNK = 6 * MiB;
const RESUMABLE = '**/storage/v1/upload/resumable/**';
const BRAND = 'rgb(0, 132, 216)';
const GREEN = 'rgb(27, 127, 59)';
const RED = 'rgb(179, 38, 30)';
const WIDTHS = [['1440 px', 'desktop'] as const, ['390 px', 'phone'] as const];

let browser: Browser;
let dir: string;
const service = client('service_role');
const tag = () => crypto.randomUUID().slice(0, 6);

/** A PNG no other test has: a colour and a patch of noise. */
async function writeImage(name: string, background: string) {
  const file = path.join(dir, name);
  const noise = { input: randomBytes(32 * 24 * 3), raw: { width: 32, height: 24, channels: 3 as const } };
  await writeFile(
    file,
    await sharp({ create: { width: 320, height: 240, channels: 3, background } })
      .composite([noise])
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

/** The creations (POST) of uploads the page sends: one per file whose bytes start going. */
function countCreations(page: Page) {
  const created: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/upload/resumable') && request.method() === 'POST') created.push(request.url());
  });
  return created;
}

const barColour = (item: Locator) =>
  item.locator('.upload-item-bar > span').evaluate((bar) => getComputedStyle(bar).backgroundColor);

/** The smallest font size of any text on the upload screen, in px. */
const smallestText = (page: Page) =>
  page.locator('.upload-page').evaluate((root) => {
    const sizes = [...root.querySelectorAll('*')]
      .filter((element) => [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent!.trim()))
      .map((element) => parseFloat(getComputedStyle(element).fontSize));
    return Math.min(...sizes);
  });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-upload-screen-'));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

describe.each(WIDTHS)('upload screen at %s', (width, viewport) => {
  it('shows each file with its own bar, then clears the list with a toast that links to the files', async () => {
    const { context, page } = await signedInAs(browser, 'UPLOADER', { viewport, landing: '/private/upload' });
    await page.getByRole('button', { name: 'Seleccionar archivos' }).waitFor();
    expect(await page.getByText('Arrastrar archivos aquí o').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, `upload-empty-${viewport}`);

    const batch = tag();
    const files = [
      await writeImage(`barra-${batch}-uno.png`, '#d35400'),
      await writeImage(`barra-${batch}-dos.png`, '#16a085'),
      path.join(dir, `barra-${batch}-grande.bin`),
    ];
    await writeFile(files[2]!, randomBytes(15 * MiB));
    const names = files.map((file) => path.basename(file));
    // The two pictures take one PATCH each; the large file's second chunk is held (its first is in: 6 of 15 MiB).
    const held = await holdPatch(page, 4);
    await page.setInputFiles(FILE_INPUT, files);
    await held.isHeld;
    const [first, second, large] = names.map((name) => uploadItem(page, name));
    await expect.poll(() => first!.getAttribute('class')).toContain('is-done');
    await expect.poll(() => second!.getAttribute('class')).toContain('is-done');
    expect(await first!.getByText('Subido', { exact: true }).count()).toBe(1);
    expect(await barColour(first!)).toBe(GREEN);
    await expect.poll(() => large!.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    expect(await large!.getByText('Subiendo… 40 %').count()).toBe(1);
    expect(await large!.getAttribute('class')).toContain('is-uploading');
    expect(await barColour(large!)).toBe(BRAND);
    expect(await page.getByRole('heading', { name: 'Subiendo 3 de 3' }).count()).toBe(1);
    // Fewer than 5 listed: the pictures show themselves (decoded, not a broken image), the other file a tile.
    await expect
      .poll(() =>
        page
          .locator('.upload-item-thumbnail')
          .evaluateAll((images) =>
            images.map((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0),
          ),
      )
      .toEqual([true, true]);
    expect(await large!.locator('.upload-item-tile').innerText()).toBe('BIN');
    expect(await smallestText(page)).toBeGreaterThanOrEqual(14);
    await expectAccessible(page);
    await screenshot(page, `upload-in-progress-${viewport}`);

    await held.release();
    await waitForUploaded(page, 3);
    // The batch is over: the list is gone (not still listed seconds later), the toast links to the files.
    await expect.poll(() => page.locator('.upload-item').count()).toBe(0);
    expect(await page.getByRole('heading', { name: /Subiendo/ }).count()).toBe(0);
    const toast = uploadedToast(page, 3);
    expect(await toast.getByRole('link', { name: 'Ver los archivos' }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, `upload-done-${viewport}`);
    expect((await rowsNamed(names)).length).toBe(3);

    await toast.getByRole('link', { name: 'Ver los archivos' }).click();
    await page.waitForURL(appUrl('/private/files?sort=uploadedOn_desc'));
    await expect.poll(() => page.locator('.file-card', { hasText: `barra-${batch}` }).count()).toBe(3);
    await context.close();
  }, 120_000);

  it('catches a copy of a library file before sending it, and lets the person choose', async () => {
    const { context, page } = await signedInAs(browser, 'UPLOADER', { viewport, landing: '/private/upload' });
    await page.getByRole('button', { name: 'Seleccionar archivos' }).waitFor();
    const original = await writeImage(`original-${tag()}.png`, colour(7));
    await page.setInputFiles(FILE_INPUT, original);
    await waitForUploaded(page, 1);
    // The library knows a file's checksum once post-processing has hashed it.
    await expect
      .poll(async () => (await rowsNamed([path.basename(original)]))[0]?.checksum ?? null, { timeout: 30_000 })
      .not.toBeNull();
    const [originalRow] = await rowsNamed([path.basename(original)]);

    const copyName = `copia-${tag()}.png`;
    const copyPath = path.join(dir, copyName);
    await copyFile(original, copyPath);
    const other = await writeImage(`otra-${tag()}.png`, colour(8));
    const created = countCreations(page);
    await page.setInputFiles(FILE_INPUT, [copyPath, other]);
    const copy = uploadItem(page, copyName);
    await copy.getByText('Ya está en la biblioteca:').waitFor();
    expect(await copy.getByRole('link', { name: path.basename(original, '.png') }).getAttribute('href')).toBe(
      `/private/file/${originalRow!.id}`,
    );
    await expect.poll(() => uploadItem(page, path.basename(other)).getAttribute('class')).toContain('is-done');
    // Only the other file went; the copy waits for the person, and the batch is not over (the toast below
    // counts both files).
    expect(created).toHaveLength(1);
    expect(await page.getByRole('heading', { name: 'Un archivo espera tu decisión' }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, `upload-duplicate-${viewport}`);

    await copy.getByRole('button', { name: `Subir de todos modos: ${copyName}` }).click();
    await waitForUploaded(page, 2);
    expect(created).toHaveLength(2);
    await expect.poll(() => page.locator('.upload-item').count()).toBe(0);

    // Offered again, and skipped this time: nothing is sent and nothing is listed.
    await page.setInputFiles(FILE_INPUT, copyPath);
    await copy.getByRole('button', { name: `Omitir: ${copyName}` }).click();
    await expect.poll(() => page.locator('.upload-item').count()).toBe(0);
    expect(created).toHaveLength(2);
    await context.close();
  }, 120_000);

  it('refuses in Spanish: a file over 1 GB before anything starts, and one Storage turns down', async () => {
    const { context, page } = await signedInAs(browser, 'UPLOADER', { viewport, landing: '/private/upload' });
    await page.getByRole('button', { name: 'Seleccionar archivos' }).waitFor();
    const created = countCreations(page);
    const big = path.join(dir, `enorme-${viewport}.mov`);
    await writeFile(big, '');
    await truncate(big, 1_000_000_001);
    await page.setInputFiles(FILE_INPUT, big);
    await page
      .getByRole('alert')
      .filter({ hasText: `No se pueden subir archivos más grandes de 1GB: enorme-${viewport}.mov` })
      .waitFor();
    expect(await page.locator('.upload-item').count()).toBe(0);
    expect(created).toEqual([]);

    // Storage refuses the upload (created without the person's session): red bar, Spanish reason, no retry.
    const refused = path.join(dir, `rechazo-${tag()}.pdf`);
    await writeFile(refused, `%PDF-1.4\n% ${crypto.randomUUID()}\n`);
    await page.route('**/storage/v1/upload/resumable**', (route) =>
      route.request().method() === 'POST'
        ? route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${stackInfo().anonKey}` } })
        : route.continue(),
    );
    await page.setInputFiles(FILE_INPUT, refused);
    const item = uploadItem(page, path.basename(refused));
    await expect.poll(() => item.getByRole('alert').textContent()).toBe('No tienes permiso para subir este archivo.');
    expect(await barColour(item)).toBe(RED);
    expect(await item.getByRole('button', { name: /Reintentar/ }).count()).toBe(0);
    expect(await page.getByText(/tus:|response code|row-level security/).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'No se pudo subir el archivo' }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, `upload-refused-${viewport}`);
    await item.getByRole('button', { name: `Quitar: ${path.basename(refused)}` }).click();
    await expect.poll(() => item.count()).toBe(0);
    await page.unroute('**/storage/v1/upload/resumable**');
    await context.close();
  }, 60_000);
});

describe('upload screen, longer lists and large files', () => {
  it("counts the batch in the heading: 'Subiendo 2 de 3'", async () => {
    const { context, page } = await signedInAs(browser, 'UPLOADER', { landing: '/private/upload' });
    await page.getByRole('button', { name: 'Seleccionar archivos' }).waitFor();
    const batch = tag();
    const files = await Promise.all(
      [1, 2, 3].map((index) => writeImage(`cuenta-${batch}-${index}.png`, colour(index + 40))),
    );
    const held = await holdPatch(page, 2);
    await page.setInputFiles(FILE_INPUT, files);
    await held.isHeld;
    await page.getByRole('heading', { name: 'Subiendo 2 de 3' }).waitFor();
    await held.release();
    await waitForUploaded(page, 3);
    await context.close();
  }, 90_000);

  it('uploads 12 files at once, without thumbnails, and records all 12', async () => {
    const { context, page } = await signedInAs(browser, 'UPLOADER', { landing: '/private/upload' });
    await page.getByRole('button', { name: 'Seleccionar archivos' }).waitFor();
    const batch = tag();
    const files = await Promise.all(
      Array.from({ length: 12 }, (_, index) => writeImage(`lote-${batch}-${index + 1}.png`, colour(index))),
    );
    const held = await holdPatch(page, 1);
    await page.setInputFiles(FILE_INPUT, files);
    await held.isHeld;
    await expect.poll(() => page.locator('.upload-item').count()).toBe(12);
    expect(await page.locator('.upload-item-thumbnail').count()).toBe(0);
    await held.release();
    await waitForUploaded(page, 12, 60_000);
    const names = files.map((file) => path.basename(file));
    expect((await rowsNamed(names)).length).toBe(12);
    await context.close();
  }, 120_000);

  it('pauses and resumes a 200 MB upload without sending any byte twice beyond one chunk', async () => {
    const name = `pausa-${tag()}.bin`;
    const bytes = randomBytes(200 * MiB);
    await writeFile(path.join(dir, name), bytes);
    const { context, page } = await signedInAs(browser, 'UPLOADER', { landing: '/private/upload' });
    await page.getByRole('button', { name: 'Seleccionar archivos' }).waitFor();
    const creations = countCreations(page);
    const offsets: number[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/upload/resumable') && request.method() === 'PATCH')
        offsets.push(Number(request.headers()['upload-offset']));
    });
    const held = await holdPatch(page, 3);
    await page.setInputFiles(FILE_INPUT, path.join(dir, name));
    await held.isHeld;
    const item = uploadItem(page, name);
    const topBarSpinner = page.getByRole('link', { name: /Subir Archivos/ }).getByText('Subiendo archivos');
    expect(await topBarSpinner.count()).toBe(1);

    await item.getByRole('button', { name: `Pausar: ${name}` }).click();
    await item.getByRole('button', { name: `Reanudar: ${name}` }).waitFor();
    await item.getByText(/^En pausa/).waitFor();
    // A paused upload sends nothing: the top bar stops spinning until it is resumed.
    await expect.poll(() => topBarSpinner.count()).toBe(0);
    await held.release('abort');

    await item.getByRole('button', { name: `Reanudar: ${name}` }).click();
    await waitForUploaded(page, 1, 120_000);
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
});
