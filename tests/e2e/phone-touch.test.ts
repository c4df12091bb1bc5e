import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  appUrl,
  expectAccessible,
  launchBrowser,
  nextFrames,
  screenshot,
  signIn,
  viewports,
} from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { seedAccounts, seedFiles } from '../helpers/seed.ts';

/**
 * A touch phone (390 px, and the narrowest supported, 360 px): selecting by tapping, the selection's menu with
 * the collections listed in it, a card's info popover and the viewer opened from the grid, each drawn inside
 * the screen and usable with a finger.
 */

let browser: Browser;
let context: BrowserContext;
let page: Page;
const service = () => client('service_role');
const marker = `tap${crypto.randomUUID().slice(0, 6)}`;
const collectionName = `Colección de verano para agencias y touroperadores ${marker}`;
let collectionId: string;
const narrowest = { width: 360, height: viewports.phone.height };

/** Where a thing is drawn against the window: whether all of it is on screen, and whether its text is cut. */
const placement = (locator: Locator) =>
  locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return {
      inside: rect.left >= 0 && rect.top >= 0 && rect.right <= window.innerWidth && rect.bottom <= window.innerHeight,
      cut: element.scrollWidth > element.clientWidth,
    };
  });

beforeAll(async () => {
  await insertFiles(marker, 4);
  const created = await service().from('collections').insert({ name: collectionName }).select('id').single();
  if (created.error) throw created.error;
  collectionId = created.data.id as string;
  browser = await launchBrowser();
  context = await browser.newContext({ locale: 'es-ES', viewport: viewports.phone, hasTouch: true, isMobile: true });
  page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  await page.goto(appUrl('/login'));
  await signIn(page, seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  await page.waitForURL('**/private/files');
});

afterAll(async () => {
  await browser?.close();
});

describe('a touch phone', () => {
  it('taps cards into the selection once anything is selected, without opening them', async () => {
    await page.goto(appUrl(`/private/files?q=${marker}`));
    await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 15_000 }).toBe('4');
    const bar = page.getByRole('region', { name: 'Archivos seleccionados' });
    // Cards by their place in the grid (rows inserted at once may come in any order).
    await page.locator('.file-card .file-select').first().tap();
    await bar.getByText('1 seleccionado', { exact: true }).waitFor();
    // Once something is selected a tap on a card adds it, as in a photo app, instead of opening it.
    await page.locator('.file-card-link').nth(1).tap();
    await bar.getByText('2 seleccionados', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/private/files');
    await page.keyboard.press('Escape');
    await expect.poll(() => bar.count()).toBe(0);
  });

  it("adds the selection to a collection from the phone's 'Más acciones' menu, inside the screen", async () => {
    await page.setViewportSize(viewports.phone);
    await page.goto(appUrl(`/private/files?q=${marker}`));
    await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 15_000 }).toBe('4');
    const bar = page.getByRole('region', { name: 'Archivos seleccionados' });
    await page.locator('.file-card .file-select').nth(0).tap();
    await page.locator('.file-card .file-select').nth(1).tap();
    await bar.getByText('2 seleccionados', { exact: true }).waitFor();

    for (const viewport of [narrowest, viewports.phone]) {
      await page.setViewportSize(viewport);
      await bar.getByRole('button', { name: 'Más acciones' }).tap();
      const menu = page.getByRole('menu');
      await menu.getByText('Añadir a colección...').waitFor();
      const item = menu.getByRole('menuitem', { name: collectionName });
      await item.scrollIntoViewIfNeeded();
      expect(await placement(menu)).toEqual({ inside: true, cut: false });
      expect(await placement(item)).toEqual({ inside: true, cut: false });
      if (viewport === narrowest) {
        await page.keyboard.press('Escape');
        await expect.poll(() => menu.count()).toBe(0);
      }
    }
    await screenshot(page, 'phone-selection-collections');
    await page.getByRole('menuitem', { name: collectionName }).tap();
    await page.getByText(`2 archivos añadidos a «${collectionName}».`).waitFor();
    const added = await service().from('collection_files').select('file_id').eq('collection_id', collectionId);
    expect(added.data).toHaveLength(2);
    await expectAccessible(page);
  });

  it("shows a card's info popover inside the screen, its links whole and its switch saying the state", async () => {
    // A document with a first-page picture has all three links: Editar, Ver en grande and Descargar.
    const documentMarker = `doc${crypto.randomUUID().slice(0, 6)}`;
    const name = `${documentMarker} documento con portada`;
    const [id] = await insertFiles(documentMarker, 1, { name: () => name, published: false });
    await service()
      .from('files')
      .update({ preview_path: `${id}/preview.jpg` })
      .eq('id', id!);
    await page.goto(appUrl(`/private/files?q=${documentMarker}`));
    for (const viewport of [narrowest, viewports.phone]) {
      await page.setViewportSize(viewport);
      await page.getByRole('button', { name: `Información de ${name}` }).tap();
      const panel = page.getByRole('dialog', { name: `Información de ${name}` });
      await panel.waitFor();
      expect((await placement(panel)).inside).toBe(true);
      // Each link on one line: never 'Edita r' or 'Descarg ar'.
      const lines = await panel
        .locator('.file-info-links > *')
        .evaluateAll((links) => links.map((link) => `${link.textContent}: ${link.getClientRects().length}`));
      expect(lines).toEqual(['Editar: 1', 'Ver en grande: 1', 'Descargar: 1']);
      expect(await panel.getByRole('switch').getAttribute('aria-checked')).toBe('false');
      expect(await panel.getByText('No activo', { exact: true }).count()).toBe(1);
      await screenshot(page, `phone-file-info-${viewport.width}`);
      await expectAccessible(page);
      await page.keyboard.press('Escape');
      await expect.poll(() => panel.count()).toBe(0);
    }
  });

  it('opens the viewer from the card, opaque and with its toolbar on one row', async () => {
    await page.goto(appUrl('/private/files?q=Piscina'));
    const name = 'Piscina principal al atardecer';
    await page.getByRole('button', { name: `Ver en grande ${name}` }).tap();
    const viewer = page.getByRole('dialog', { name });
    await viewer.waitFor();
    expect(new URL(page.url()).pathname).toBe('/private/files');
    expect(
      await page.locator('.lightbox-overlay').evaluate((overlay) => getComputedStyle(overlay).backgroundColor),
    ).toBe('rgb(8, 12, 16)');
    for (const viewport of [narrowest, viewports.phone, viewports.desktop]) {
      await page.setViewportSize(viewport);
      const toolbar = viewer.locator('.lightbox-bar');
      const centres = await toolbar.evaluate((element) =>
        [...element.children]
          .filter((child) => getComputedStyle(child).display !== 'none' && !child.matches('.lightbox-title'))
          .map((child) => {
            const rect = child.getBoundingClientRect();
            return Math.round(rect.top + rect.height / 2);
          }),
      );
      expect(Math.max(...centres) - Math.min(...centres)).toBeLessThanOrEqual(4);
      await screenshot(page, `lightbox-from-card-${viewport.width}`);
      expect((await placement(toolbar)).inside).toBe(true);
    }
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer.count()).toBe(0);
  });
});

describe('every menu and popover on a phone', () => {
  it("stays inside the screen at 360 and 390 px: a row's actions, the tag picker", async () => {
    for (const viewport of [narrowest, viewports.phone]) {
      await page.setViewportSize(viewport);
      await page.goto(appUrl('/private/users'));
      await page.getByRole('button', { name: `Acciones de ${seedAccounts.UPLOADER.email}` }).tap();
      const rowMenu = page.getByRole('menu');
      await rowMenu.getByRole('menuitem', { name: 'Cambiar contraseña' }).waitFor();
      expect(await placement(rowMenu)).toEqual({ inside: true, cut: false });
      await page.keyboard.press('Escape');
      await expect.poll(() => rowMenu.count()).toBe(0);

      await page.goto(appUrl(`/private/file/${seedFiles.piscina}`));
      await page.getByRole('button', { name: 'Añadir etiquetas' }).tap();
      const picker = page.getByRole('dialog').filter({ has: page.getByRole('combobox') });
      await picker.getByRole('option').first().waitFor();
      expect((await placement(picker)).inside).toBe(true);
      await screenshot(page, `phone-tag-picker-${viewport.width}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => picker.count()).toBe(0);
    }
  });
});

describe('the filters on a phone', () => {
  it("counts the set filters as 'Filtros (2)', keeps 'Quitar filtros' on screen and opens the sheet at its top", async () => {
    await page.setViewportSize(viewports.phone);
    await page.goto(appUrl('/private/files?type=image&status=published&sort=size_asc'));
    await page.getByTestId('files-count').filter({ hasText: /^\d+$/ }).waitFor();
    const button = page.getByRole('button', { name: /^Filtros/ });
    expect(await button.evaluate((element) => (element as HTMLElement).innerText)).toBe('Filtros (2)');
    const clear = page.getByRole('button', { name: 'Quitar filtros' });
    expect((await placement(clear)).inside).toBe(true);
    await screenshot(page, 'phone-filters-set');

    await button.tap();
    const sheet = page.getByRole('dialog', { name: 'Filtros' });
    await sheet.waitFor();
    // Judged once the tag list has drawn its options (it scrolls its first one into view as it mounts).
    await sheet.getByRole('option').first().waitFor();
    await nextFrames(page);
    expect(await sheet.locator('.sheet-body').evaluate((body) => body.scrollTop)).toBe(0);
    expect((await placement(sheet.getByText('Orden', { exact: true }))).inside).toBe(true);
    await screenshot(page, 'phone-filters-sheet');
    await page.keyboard.press('Escape');
    await expect.poll(() => sheet.count()).toBe(0);
  });

  it('drops a search shortened to 1 or 2 letters instead of leaving its results under them', async () => {
    await page.goto(appUrl(`/private/files?q=${marker}`));
    await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 15_000 }).toBe('4');
    await page.getByLabel('Buscar').fill('ta');
    await page.getByText('Escribe al menos 3 caracteres para buscar.').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.has('q')).toBe(false);
    await expect.poll(async () => Number(await page.getByTestId('files-count').textContent())).toBeGreaterThan(4);
  });
});
