import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  appUrl,
  expectAccessible,
  launchBrowser,
  layoutSettled,
  screenshot,
  signedInAs,
  viewports,
} from '../helpers/browser.ts';
import { insertFiles } from '../helpers/factories.ts';
import { overlappingElements, sidewaysOverflow } from '../helpers/overlaps.ts';
import { seedCollections, seedFiles, seedTagCategories } from '../helpers/seed.ts';
import { filterChip } from '../helpers/filters.ts';

/**
 * The files screen on a phone (390 × 844): it starts with photos, not filters; the filters are
 * one 'Filtros' sheet; the selection bar is one row; a card's 'No activo' badge stays on one line;
 * and on every screen nothing drawn covers anything else.
 */

let browser: Browser;
let context: BrowserContext;
let page: Page;
const marker = `movil${crypto.randomUUID().slice(0, 6)}`;

async function openFiles(search = '') {
  await page.goto(appUrl(`/private/files${search}`));
  await page.locator('.file-card').first().waitFor();
  await layoutSettled(page);
}

beforeAll(async () => {
  // Enough pictures, the newest files, for a first screen of photos whatever other tests left behind.
  await insertFiles(marker, 12, { extension: 'jpg', width: 1600, height: 1000, published: false });
  browser = await launchBrowser();
  ({ context, page } = await signedInAs(browser, 'ADMIN', { viewport: 'phone' }));
});

afterAll(async () => {
  await browser?.close();
});

describe('the files screen on a phone', () => {
  it('shows at least two rows of photos on the first screen, with no filter open', async () => {
    await openFiles();
    const rows = await page.locator('.file-grid-row:not(.file-grid-heading)').evaluateAll((elements) =>
      elements.map((row) => {
        const media = row.querySelector('.file-card-media')!.getBoundingClientRect();
        return media.bottom;
      }),
    );
    const onFirstScreen = rows.filter((bottom) => bottom <= viewports.phone.height);
    expect(onFirstScreen.length).toBeGreaterThanOrEqual(2);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await screenshot(page, 'phone-files');
    await expectAccessible(page);
  });

  it("keeps the count and 'Seleccionar todos' on one row, so the grid starts higher", async () => {
    await openFiles();
    const heading = (await page.locator('.files-heading').boundingBox())!;
    const title = (await page.locator('.files-heading h1').boundingBox())!;
    const selectAll = page.getByRole('button', { name: /^Seleccionar todos \(\d+\)$/ });
    const button = (await selectAll.boundingBox())!;
    // Beside the heading, not under it: the button's middle is within the heading's line.
    expect(Math.abs(button.y + button.height / 2 - (title.y + title.height / 2))).toBeLessThan(6);
    expect(button.x).toBeGreaterThan(title.x + title.width);
    expect(button.x + button.width).toBeLessThanOrEqual(viewports.phone.width - 16 + 1);
    // One row (about 37 px) where it took two (77 px): the first card starts at ~232 px instead of ~272.
    expect(heading.height).toBeLessThanOrEqual(40);
    const firstCard = (await page.locator('.file-card').first().boundingBox())!;
    expect(firstCard.y).toBeLessThan(240);
    expect(await selectAll.innerText()).toBe('Todos');
    await selectAll.click();
    await page.getByRole('region', { name: 'Archivos seleccionados' }).waitFor();
    await screenshot(page, 'phone-files-all-selected');
    await page.keyboard.press('Escape');
  });

  it("keeps every filter in one 'Filtros' sheet, and shows what is set as removable chips", async () => {
    await openFiles();
    expect(await filterChip(page, 'Tipo').isVisible()).toBe(false);
    await page.getByRole('button', { name: /^Filtros/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Filtros' });
    await sheet.getByRole('radio', { name: 'Imágenes' }).click();
    await page.waitForURL(/type=image/);
    await screenshot(page, 'phone-filters-sheet');
    await expectAccessible(page);
    await sheet.getByRole('button', { name: /^Ver \d+ archivos?$/ }).click();
    await expect.poll(() => sheet.count()).toBe(0);
    await expect.poll(() => filterChip(page, 'Tipo: Imágenes').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Filtros (1)' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Quitar filtro Tipo' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.has('type')).toBe(false);
  });

  it('shows the selection bar as one row, the other actions in a menu', async () => {
    await openFiles(`?q=${marker}`);
    await page.getByRole('checkbox', { name: `Seleccionar ${marker} 0`, exact: true }).click();
    await page.getByRole('checkbox', { name: `Seleccionar ${marker} 1`, exact: true }).click();
    const bar = page.getByRole('region', { name: 'Archivos seleccionados' });
    await bar.getByText('2 seleccionados').waitFor();
    const rows = await bar.evaluate((element) => {
      const centres = [...element.children]
        .filter((child) => getComputedStyle(child).display !== 'none')
        .map((child) => {
          const rect = child.getBoundingClientRect();
          return Math.round(rect.top + rect.height / 2);
        });
      return { centres, height: element.getBoundingClientRect().height };
    });
    expect(Math.max(...rows.centres) - Math.min(...rows.centres)).toBeLessThanOrEqual(4);
    expect(rows.height).toBeLessThanOrEqual(60);
    expect(await overlappingElements(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBe(0);
    // Read whole, not '2 selecciona…', at 390 px and at the narrowest phone the app supports.
    const countCutShort = () =>
      bar.locator('.selection-count').evaluate((count) => count.scrollWidth > count.clientWidth);
    expect(await countCutShort()).toBe(false);
    await page.setViewportSize({ width: 360, height: viewports.phone.height });
    expect(await countCutShort()).toBe(false);
    await page.setViewportSize(viewports.phone);
    await screenshot(page, 'phone-selection');
    await bar.getByRole('button', { name: 'Más acciones' }).click();
    for (const action of ['Activar', 'Descargar ZIP', 'Borrar']) {
      await page.getByRole('menuitem', { name: action }).waitFor();
    }
    await screenshot(page, 'phone-selection-menu');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect.poll(() => bar.count()).toBe(0);
  });

  it("keeps the 'No activo' badge on one line inside its card", async () => {
    await openFiles(`?q=${marker}`);
    const badges = await page.locator('.file-card .file-badge-off').evaluateAll((elements) =>
      elements.map((badge) => {
        const card = badge.closest('.file-card')!.getBoundingClientRect();
        const rect = badge.getBoundingClientRect();
        return {
          lines: Math.round(rect.height / parseFloat(getComputedStyle(badge).lineHeight || '14')),
          inside: rect.left >= card.left && rect.right <= card.right,
          height: rect.height,
        };
      }),
    );
    expect(badges.length).toBeGreaterThan(0);
    for (const badge of badges) {
      expect(badge.height).toBeLessThan(24);
      expect(badge.inside).toBe(true);
    }
  });
});

describe('every screen at 390 px', () => {
  const screens: Array<[string, string]> = [
    ['files', '/private/files'],
    ['upload', '/private/upload'],
    ['file-detail', `/private/file/${seedFiles.piscina}`],
    ['tags', '/private/tags'],
    ['tags-new-category', '/private/tags/new-category'],
    ['tags-edit-category', `/private/tags/edit-category/${seedTagCategories.espacios}`],
    ['users', '/private/users'],
    ['users-new', '/private/users/new-user'],
    ['collections', '/private/collections'],
    ['collection', `/private/collection/${seedCollections.verano}`],
    ['academy', '/private/academy'],
    ['academy-categories', '/private/academy/categories'],
    ['academy-users', '/private/academy/users'],
    ['operations', '/private/operations'],
    ['trash', '/private/trash'],
    ['links', '/private/links'],
    ['account', '/private/account'],
  ];

  it.each(screens)('%s: nothing covers anything else', async (name, path) => {
    await page.goto(appUrl(path));
    await page.locator('main h1').first().waitFor();
    await layoutSettled(page);
    await screenshot(page, `phone-${name}`);
    expect(await overlappingElements(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBe(0);
  });

  it('public pages: nothing covers anything else', async () => {
    const visitor = await browser.newContext({ viewport: viewports.phone });
    const publicPage = await visitor.newPage();
    for (const [name, path] of [
      ['public-file', `/file/${seedFiles.piscina}`],
      ['public-collection', `/collection/${seedCollections.verano}`],
      ['login', '/login'],
    ] as const) {
      await publicPage.goto(appUrl(path));
      await publicPage.locator('h1').first().waitFor();
      await layoutSettled(publicPage);
      await screenshot(publicPage, `phone-${name}`);
      expect(await overlappingElements(publicPage), name).toEqual([]);
      expect(await sidewaysOverflow(publicPage), name).toBe(0);
    }
    await visitor.close();
  });
});

afterAll(async () => {
  await context?.close();
});
