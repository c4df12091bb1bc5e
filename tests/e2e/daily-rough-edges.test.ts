import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core';
import { appUrl, launchBrowser, layoutSettled, screenshot, signIn, viewports } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { FILE_INPUT } from '../helpers/upload.ts';
import sharp from 'sharp';

/**
 * What staff met every day and saw as broken, each at the size it was seen: the admin's top bar during an
 * upload, the selection's menu with many collections, a phone's narrow cards, and toasts over action bars.
 */

let browser: Browser;
let dir: string;
const service = () => client('service_role');
/** A fresh word for each group of rows, so no search finds another group's (or an upload's) files. */
const word = (prefix: string) => `${prefix}${crypto.randomUUID().slice(0, 6)}`;
const marker = word('daily');
const barMarker = word('barra');
const menuMarker = word('menu');
const narrowMarker = word('estrecha');
const formMarker = word('ficha');
const yearsMarker = word('anos');
const photoMarker = word('foto');
const collectionIds: string[] = [];
const fileIds: string[] = [];

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const boxOf = (locator: Locator): Promise<Box> =>
  locator.evaluate((element) => {
    const { left, top, right, bottom } = element.getBoundingClientRect();
    return { left, top, right, bottom };
  });

/** Two boxes share more than a hairline (a pixel of antialiasing is not an overlap). */
const overlap = (a: Box, b: Box) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;

/** A signed-in admin in a fresh context; on a phone a touch one, as staff hold it. */
async function adminPage(viewport: keyof typeof viewports, landing = '/private/files') {
  const phone = viewport === 'phone';
  const context: BrowserContext = await browser.newContext({
    locale: 'es-ES',
    viewport: viewports[viewport],
    hasTouch: phone,
    isMobile: phone,
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  await page.goto(appUrl(`/login?redirect=${encodeURIComponent(landing)}`));
  await signIn(page, seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  await page.waitForURL((url) => url.pathname !== '/login');
  return page;
}

/** The top bar's height and the distinct tops of its entries (one value: one line), with 'Salir' among them. */
const barLayout = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector('.top-bar')!.getBoundingClientRect();
    const entries = [...document.querySelectorAll('.top-bar nav li')]
      .map((element) => ({ name: element.textContent?.trim() ?? '', rect: element.getBoundingClientRect() }))
      .filter(({ rect }) => rect.width > 0);
    return {
      height: Math.round(bar.height),
      lines: new Set(entries.map(({ rect }) => Math.round(rect.top))).size,
      salirOnFirstLine: entries.some(
        ({ name, rect }) => name === 'Salir' && Math.round(rect.top) === Math.round(entries[0]!.rect.top),
      ),
    };
  });

/** Holds every request matching `pattern` until released: something deterministically in flight. */
async function hold(page: Page, pattern: string, method: string) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => {};
  const isHeld = new Promise<void>((resolve) => (reached = resolve));
  await page.route(pattern, async (route: Route) => {
    if (route.request().method() !== method) return route.continue();
    reached();
    await released;
    await route.continue().catch(() => undefined);
  });
  return {
    isHeld,
    release: async () => {
      release();
      await page.unroute(pattern);
    },
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'daily-'));
  // Scrollbars drawn as a desktop browser draws them: they take width from the top bar.
  browser = await launchBrowser({ scrollbars: true });
});

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
  if (collectionIds.length > 0) await service().from('collections').delete().in('id', collectionIds);
  if (fileIds.length > 0) await service().from('files').delete().in('id', fileIds);
});

describe("the admin's top bar at 1440 px", () => {
  it("stays one line with 'Salir' on it while an upload runs and while an action is working", async () => {
    const page = await adminPage('desktop', '/private/upload');
    await page.getByRole('button', { name: 'Seleccionar archivos' }).waitFor();
    const idle = await barLayout(page);
    expect(idle).toEqual({ height: idle.height, lines: 1, salirOnFirstLine: true });

    const name = `barra-${marker}.bin`;
    await writeFile(path.join(dir, name), randomBytes(256 * 1024));
    const upload = await hold(page, '**/storage/v1/upload/resumable/**', 'PATCH');
    await page.setInputFiles(FILE_INPUT, path.join(dir, name));
    await upload.isHeld;
    await page
      .getByRole('link', { name: /Subir Archivos/ })
      .getByText('Subiendo archivos')
      .waitFor();
    expect(await barLayout(page)).toEqual(idle);
    await screenshot(page, 'daily-top-bar-uploading-1440');
    await upload.release();

    // An action in flight: the working indicator spins at the end of the bar.
    const ids = await insertFiles(barMarker, 2);
    fileIds.push(...ids);
    await page.goto(appUrl(`/private/files?q=${barMarker}`));
    await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 15_000 }).toBe('2');
    await page.locator('.file-card .file-select').first().check();
    const publish = await hold(page, '**/rest/v1/rpc/publish_files**', 'POST');
    const bar = page.getByRole('region', { name: 'Archivos seleccionados' });
    await bar.getByRole('button', { name: /^(Activar|Desactivar)$/ }).click();
    await publish.isHeld;
    await page.locator('.working-indicator').getByText('Trabajando…').waitFor();
    expect(await barLayout(page)).toEqual(idle);
    await screenshot(page, 'daily-top-bar-working-1440');
    await publish.release();
    await page.context().close();

    const phone = await adminPage('phone', '/private/upload');
    await phone.getByRole('button', { name: 'Seleccionar archivos' }).waitFor();
    // Other bytes: a copy of the file just uploaded would be caught before any of its bytes are sent.
    const phoneName = `barra-movil-${marker}.bin`;
    await writeFile(path.join(dir, phoneName), randomBytes(256 * 1024));
    const phoneUpload = await hold(phone, '**/storage/v1/upload/resumable/**', 'PATCH');
    await phone.setInputFiles(FILE_INPUT, path.join(dir, phoneName));
    await phoneUpload.isHeld;
    await phone.getByRole('button', { name: 'Menú' }).tap();
    await phone
      .getByRole('link', { name: /Subir Archivos/ })
      .getByText('Subiendo archivos')
      .waitFor();
    await screenshot(phone, 'daily-top-bar-uploading-phone');
    await phoneUpload.release();
    await phone.context().close();
  });
});

describe("the selection's menus with many collections", () => {
  beforeAll(async () => {
    const rows = Array.from({ length: 14 }, (_, index) => ({
      name: `${marker} colección ${String(index + 1).padStart(2, '0')}`,
    }));
    const { data, error } = await service().from('collections').insert(rows).select('id');
    if (error) throw error;
    collectionIds.push(...data.map((row) => row.id as string));
    fileIds.push(...(await insertFiles(menuMarker, 2)));
  });

  const selectBoth = async (page: Page, tap: boolean) => {
    await page.goto(appUrl(`/private/files?q=${menuMarker}`));
    await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 15_000 }).toBe('2');
    const bar = page.getByRole('region', { name: 'Archivos seleccionados' });
    const boxes = page.locator('.file-card .file-select');
    await (tap ? boxes.nth(0).tap() : boxes.nth(0).check());
    await bar.getByText('1 seleccionado', { exact: true }).waitFor();
    await (tap ? boxes.nth(1).tap() : boxes.nth(1).check());
    await bar.getByText('2 seleccionados', { exact: true }).waitFor();
    return bar;
  };

  it("keeps 'Borrar' and every action in view above the list on a touch phone", async () => {
    const page = await adminPage('phone');
    const bar = await selectBoth(page, true);
    await bar.getByRole('button', { name: 'Más acciones' }).tap();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: `${marker} colección 01` }).waitFor();
    await layoutSettled(page);
    const menuBox = await boxOf(menu);
    const window = viewports.phone;
    expect(menuBox.top >= 0 && menuBox.bottom <= window.height && menuBox.right <= window.width).toBe(true);
    const firstCollection = await boxOf(menu.getByRole('menuitem', { name: `${marker} colección 01` }));
    for (const action of ['Descargar ZIP', 'Compartir enlace', 'Borrar']) {
      const box = await boxOf(menu.getByRole('menuitem', { name: action }));
      // Drawn whole inside the open menu, without scrolling it, and above the collections.
      expect({ action, inside: box.top >= menuBox.top && box.bottom <= menuBox.bottom }).toEqual({
        action,
        inside: true,
      });
      expect(box.bottom).toBeLessThanOrEqual(firstCollection.top);
    }
    await screenshot(page, 'daily-selection-menu-phone');
    // The last collection is reachable by scrolling the list, and the actions stay where they were.
    const last = menu.getByRole('menuitem', { name: `${marker} colección 14` });
    const borrarBefore = await boxOf(menu.getByRole('menuitem', { name: 'Borrar' }));
    await last.scrollIntoViewIfNeeded();
    const lastBox = await boxOf(last);
    expect(lastBox.bottom).toBeLessThanOrEqual(menuBox.bottom + 1);
    const borrar = await boxOf(menu.getByRole('menuitem', { name: 'Borrar' }));
    expect(borrar).toEqual(borrarBefore);
    await last.tap();
    await page.getByText(`2 archivos añadidos a «${marker} colección 14».`).waitFor();
    await page.context().close();
  });

  it("lists the collections in their own menu at 1440 px, leaving 'Borrar' uncovered", async () => {
    const page = await adminPage('desktop');
    const bar = await selectBoth(page, false);
    await bar.getByRole('button', { name: 'Añadir a colección...' }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: `${marker} colección 01` }).waitFor();
    await layoutSettled(page);
    const menuBox = await boxOf(menu);
    expect(menuBox.top >= 0 && menuBox.bottom <= viewports.desktop.height).toBe(true);
    // Radix hides what is outside an open menu from assistive technology, so found by its class, not its role.
    const borrar = bar.locator('.selection-delete');
    expect(await borrar.isVisible()).toBe(true);
    expect(overlap(await boxOf(borrar), menuBox)).toBe(false);
    await screenshot(page, 'daily-selection-collections-1440');
    await page.context().close();
  });
});

describe("a phone's narrow cards", () => {
  const reason =
    'El archivo dice ser un vídeo pero no se pudo leer: no es una MPEG ni un formato de vídeo conocido. Súbalo de nuevo desde el original.';

  beforeAll(async () => {
    fileIds.push(
      // Portrait photos from a phone (3:4 and 9:16): a row of 130 px draws them 73 to 100 px wide.
      ...(await insertFiles(narrowMarker, 2, {
        extension: 'jpg',
        width: 1200,
        height: 1600,
      })),
      ...(await insertFiles(`${narrowMarker}n`, 1, {
        extension: 'jpg',
        width: 900,
        height: 1600,
        name: () => `${narrowMarker} alta`,
      })),
      ...(await insertFiles(`${narrowMarker}f`, 1, {
        extension: 'mp4',
        width: 900,
        height: 1600,
        processing_error: reason,
        name: () => `${narrowMarker} fallida`,
      })),
    );
  });

  it('keeps the checkbox clear of the zoom and info buttons and a failed reason in whole lines', async () => {
    const page = await adminPage('phone');
    await page.goto(appUrl(`/private/files?q=${narrowMarker}`));
    await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 15_000 }).toBe('4');
    await layoutSettled(page);
    await screenshot(page, 'daily-narrow-cards-phone');
    const cards = await page.locator('.file-card').all();
    expect(cards).toHaveLength(4);
    for (const card of cards) {
      const width = (await boxOf(card)).right - (await boxOf(card)).left;
      expect(width).toBeLessThan(140); // narrow, as the case staff met
      const controls = await Promise.all(
        ['.file-select', '.file-zoom', '.file-info-button'].map(async (selector) =>
          (await card.locator(selector).count()) ? { selector, box: await boxOf(card.locator(selector)) } : null,
        ),
      );
      const present = controls.filter((control) => control !== null);
      for (let i = 0; i < present.length; i++)
        for (let j = i + 1; j < present.length; j++)
          expect({
            pair: `${present[i]!.selector} × ${present[j]!.selector}`,
            overlap: overlap(present[i]!.box, present[j]!.box),
          }).toEqual({
            pair: `${present[i]!.selector} × ${present[j]!.selector}`,
            overlap: false,
          });
    }

    const failed = page.locator('.file-card', { hasText: 'No se pudo procesar' });
    const tile = failed.locator('.file-tile-failed');
    expect(await tile.getAttribute('title')).toBe(reason);
    const tileBox = await boxOf(tile);
    const shown = failed.locator('.file-tile-failed-reason');
    const lines = await shown.evaluate((element) => {
      const lineHeight = parseFloat(getComputedStyle(element).lineHeight);
      return element.getBoundingClientRect().height / lineHeight;
    });
    // Whole lines only: a line cut through its middle is a height between two whole numbers of lines.
    expect(Math.abs(lines - Math.round(lines))).toBeLessThan(0.05);
    expect(Math.round(lines)).toBeGreaterThanOrEqual(1);
    const textBoxes = [await boxOf(failed.locator('.file-tile-failed-title')), await boxOf(shown)];
    for (const box of textBoxes) {
      expect(box.top >= tileBox.top && box.bottom <= tileBox.bottom).toBe(true);
      for (const selector of ['.file-select', '.file-info-button', '.file-badges']) {
        expect({ selector, overlap: overlap(box, await boxOf(failed.locator(selector))) }).toEqual({
          selector,
          overlap: false,
        });
      }
    }
    await page.context().close();

    const desktop = await adminPage('desktop');
    await desktop.goto(appUrl(`/private/files?q=${narrowMarker}`));
    await expect.poll(() => desktop.getByTestId('files-count').textContent(), { timeout: 15_000 }).toBe('4');
    await layoutSettled(desktop);
    await screenshot(desktop, 'daily-narrow-cards-1440');
    await desktop.context().close();
  });
});

describe('toasts and the timeline on a phone', () => {
  it("shows a toast above the file form's Guardar bar, and the timeline's years below the selection bar", async () => {
    const [fileId] = await insertFiles(formMarker, 1);
    fileIds.push(fileId!);
    for (const size of ['phone', 'desktop'] as const) {
      const page = await adminPage(size, `/private/file/${fileId}`);
      await page.getByLabel('Descripción', { exact: true }).fill(`Guardado desde ${size}`);
      await page.getByRole('button', { name: 'Guardar' }).click();
      const toast = page.locator('[data-sonner-toast]', { hasText: 'Cambios guardados.' });
      await toast.waitFor();
      await layoutSettled(page);
      const bar = await boxOf(page.locator('.form-sticky-actions'));
      expect(bar.bottom).toBeLessThanOrEqual(viewports[size].height + 1); // stuck on screen, as staff see it
      expect(overlap(await boxOf(toast), bar)).toBe(false);
      await screenshot(page, `daily-toast-over-form-${size}`);
      await page.context().close();
    }

    // Files in two years: the timeline shows a year label at its top.
    fileIds.push(
      ...(await insertFiles(yearsMarker, 3, { uploaded_on: '2024-05-10T10:00:00Z' })),
      ...(await insertFiles(yearsMarker, 3, {
        uploaded_on: '2026-03-10T10:00:00Z',
        name: (i) => `${yearsMarker} b${i}`,
      })),
    );
    for (const size of ['phone', 'desktop'] as const) {
      const page = await adminPage(size);
      await page.goto(appUrl(`/private/files?q=${yearsMarker}`));
      await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 15_000 }).toBe('6');
      const checkbox = page.locator('.file-card .file-select').first();
      await (size === 'phone' ? checkbox.tap() : checkbox.check());
      const selection = page.getByRole('region', { name: 'Archivos seleccionados' });
      await selection.getByText('1', { exact: true }).waitFor();
      await layoutSettled(page);
      const barBox = await boxOf(selection);
      const years = await page.locator('.timeline-year').all();
      expect(years.length).toBeGreaterThan(0);
      for (const year of years) {
        const box = await boxOf(year);
        expect({ year: await year.textContent(), covered: overlap(box, barBox) }).toEqual({
          year: await year.textContent(),
          covered: false,
        });
        expect(box.top).toBeGreaterThanOrEqual(0);
      }
      await screenshot(page, `daily-timeline-selection-${size}`);
      await page.context().close();
    }
  });
});

describe('the viewer', () => {
  const names = [`${photoMarker} primera`, `${photoMarker} segunda`];

  beforeAll(async () => {
    // Two 1600 px photos stored for real: smaller than the viewer's 2048 px rendition.
    for (const [index, name] of names.entries()) {
      const id = crypto.randomUUID();
      const objectPath = `${id}/foto-${index}.jpg`;
      const bytes = await sharp({
        create: { width: 1600, height: 1200, channels: 3, background: index ? '#2a6f4e' : '#8a3b12' },
      })
        .jpeg()
        .toBuffer();
      const stored = await service().storage.from('media').upload(objectPath, bytes, { contentType: 'image/jpeg' });
      if (stored.error) throw stored.error;
      fileIds.push(
        ...(await insertFiles(`${photoMarker}${index}`, 1, {
          id,
          extension: 'jpg',
          object_path: objectPath,
          width: 1600,
          height: 1200,
          name: () => name,
        })),
      );
    }
  });

  /** The viewer's picture once decoded: its box on screen and its own pixels. */
  const drawn = async (page: Page) => {
    const image = page.getByRole('dialog').locator('img.lightbox-image');
    await expect
      .poll(
        () => image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
        {
          timeout: 20_000,
        },
      )
      .toBe(true);
    return image.evaluate((img) => {
      const picture = img as HTMLImageElement;
      const box = picture.getBoundingClientRect();
      return {
        width: box.width,
        height: box.height,
        naturalWidth: picture.naturalWidth,
        naturalHeight: picture.naturalHeight,
      };
    });
  };

  it('is swiped between photos on a touch phone and never draws a photo above its own pixels', async () => {
    for (const size of ['phone', 'desktop'] as const) {
      const page = await adminPage(size);
      await page.goto(appUrl(`/private/files?q=${photoMarker}`));
      await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 15_000 }).toBe('2');
      const zoom = page.locator('.file-card .file-zoom').first();
      await (size === 'phone' ? zoom.tap() : zoom.click());
      const dialog = page.getByRole('dialog');
      const title = dialog.locator('.lightbox-title');
      await title.waitFor();
      const picture = await drawn(page);
      // The rendition is no larger than the 1600 px original, and it is drawn at most at its own size.
      expect(picture.naturalWidth).toBeLessThanOrEqual(1600);
      expect(picture.width).toBeLessThanOrEqual(picture.naturalWidth + 0.5);
      expect(picture.height).toBeLessThanOrEqual(picture.naturalHeight + 0.5);
      await layoutSettled(page);
      await screenshot(page, `daily-viewer-${size}`);

      if (size === 'phone') {
        const first = await title.textContent();
        const cdp = await page.context().newCDPSession(page);
        const swipe = async (from: number, to: number) => {
          const y = 400;
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
          for (let step = 1; step <= 5; step++) {
            const x = from + ((to - from) * step) / 5;
            await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
          }
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        };
        // Right to left: the next photo; left to right: back to the first.
        await swipe(320, 70);
        await expect.poll(() => title.textContent()).not.toBe(first);
        expect(names).toContain(await title.textContent());
        const second = await drawn(page);
        expect(second.width).toBeLessThanOrEqual(second.naturalWidth + 0.5);
        await swipe(70, 320);
        await expect.poll(() => title.textContent()).toBe(first);
      }
      await page.context().close();
    }
  });
});
