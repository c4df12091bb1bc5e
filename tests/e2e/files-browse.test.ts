import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  appUrl,
  expectAccessible,
  launchBrowser,
  layoutSettled,
  nextFrames,
  screenshot,
  signedInAs,
  valuesOver,
  viewports,
} from '../helpers/browser.ts';
import { insertFiles } from '../helpers/factories.ts';
import { chooseFilter, filterChip } from '../helpers/filters.ts';

/**
 * The files screen as a person browses it: a long library scrolls and stays where it was left,
 * cards never overlap at desktop or phone width, filters chosen in quick succession all stick, the grid is
 * keyboard-navigable, previews open in a lightbox, and the empty and loading states are designed.
 * Every test here failed on dbcc28a (the page jumped back to the top, rows of 300 px overlapped taller cards).
 */

let browser: Browser;
const marker = `brw${crypto.randomUUID().slice(0, 6)}`;
const LIBRARY = 300;

beforeAll(async () => {
  browser = await launchBrowser();
  // A library with every kind of card: landscape and portrait photos, panoramas, documents, long titles.
  const shapes = [
    { extension: 'jpg', width: 4000, height: 3000 },
    { extension: 'jpg', width: 3000, height: 4500 },
    { extension: 'png', width: 8000, height: 1000 },
    { extension: 'pdf', width: null, height: null },
    { extension: 'docx', width: null, height: null },
  ];
  for (const [index, shape] of shapes.entries()) {
    await insertFiles(marker, LIBRARY / shapes.length, {
      ...shape,
      name: (i) =>
        i % 7 === 0
          ? `${marker} ${index}-${i} título muy largo de un archivo con muchas palabras que no cabe en la tarjeta`
          : `${marker} ${index}-${i}`,
    });
  }
});

afterAll(async () => {
  await browser?.close();
});

async function openLibrary(viewport: keyof typeof viewports): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await signedInAs(browser, 'ADMIN', {
    viewport,
    landing: `/private/files?q=${marker}`,
  });
  await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 20_000 }).toBe(String(LIBRARY));
  await page.locator('.file-card').first().waitFor();
  return { context, page };
}

/** Every pair of card boxes on screen that intersect (more than a pixel of rounding). */
async function overlappingCards(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll('.file-card')].map((card) => ({
      name: card.querySelector('.file-name')?.textContent ?? '',
      rect: card.getBoundingClientRect(),
    }));
    const clashes: string[] = [];
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => {
        const x = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
        const y = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
        if (x > 1 && y > 1) clashes.push(`${a.name} × ${b.name}`);
      }),
    );
    return clashes;
  });
}

describe('browsing the files screen', () => {
  for (const viewport of ['desktop', 'phone'] as const) {
    it(`scrolls to the end of a ${LIBRARY}-file library and stays there (${viewport})`, async () => {
      const { context, page } = await openLibrary(viewport);
      await screenshot(page, `files-library-${viewport}`);
      await expectAccessible(page);
      // Scroll to the bottom until every page is loaded: the grid draws the library's last file.
      const loadingMore = page.getByText('Cargando más archivos…');
      const lastLoaded = page.locator(`.file-card-link[data-index="${LIBRARY - 1}"]`);
      for (let round = 0; round < 30 && (await lastLoaded.count()) === 0; round += 1) {
        await page.keyboard.press('End');
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await nextFrames(page);
        await loadingMore.waitFor({ state: 'detached' });
        await nextFrames(page);
      }
      expect(await lastLoaded.count()).toBe(1);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      // What still arrives (the heading's count, the timeline's months, pictures) has landed.
      await layoutSettled(page);
      const bottom = await page.evaluate(() => window.scrollY);
      expect(bottom).toBeGreaterThan(1000);
      const lastCardName = await page.locator('.file-card .file-name').last().textContent();
      // A person reading the last row for 3 s: it never moves meanwhile (the page used to jump to the top).
      const lastCardTops = await valuesOver(page, 3000, { top: `.file-card-link[data-index="${LIBRARY - 1}"]` });
      expect(lastCardTops).toHaveLength(1);
      expect(lastCardTops[0]).not.toBeNull();
      expect(await page.locator('.file-card .file-name').last().textContent()).toBe(lastCardName);
      expect(await overlappingCards(page)).toEqual([]);
      await screenshot(page, `files-library-end-${viewport}`);
      await context.close();
    });
  }

  it('never lets two cards overlap, whatever their content, at 1440 and 390 px', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page } = await openLibrary(viewport);
      for (let step = 0; step < 6; step += 1) {
        expect(await overlappingCards(page)).toEqual([]);
        // Every card's caption sits inside its own box: the size/date line is never covered.
        const hidden = await page.evaluate(
          () =>
            [...document.querySelectorAll('.file-card')].filter((card) => {
              const meta = card.querySelector('.file-meta')!.getBoundingClientRect();
              const box = card.getBoundingClientRect();
              return meta.bottom > box.bottom + 1 || meta.height === 0;
            }).length,
        );
        expect(hidden).toBe(0);
        const before = await page.evaluate(() => window.scrollY);
        await page.mouse.wheel(0, 700);
        // Scrolled, and the rows for the new position drawn (two frames: the scroll event's, then React's).
        await page.waitForFunction((y) => window.scrollY !== y, before);
        await nextFrames(page);
      }
      await context.close();
    }
  });

  it('keeps a filter chosen right after another one', async () => {
    const { context, page } = await openLibrary('desktop');
    // The second choice at each moment the first one's work can still be under way: at once, two frames later,
    // once it is in the URL, once its count is shown (its list comes from the cache after the first round).
    const count = () => page.getByTestId('files-count').textContent();
    const moments: Array<() => Promise<unknown>> = [
      async () => {},
      () => nextFrames(page),
      () => page.waitForURL((url) => url.searchParams.get('type') === 'image'),
      () => expect.poll(count, { timeout: 15_000 }).toBe(String((LIBRARY * 3) / 5)),
    ];
    for (const moment of moments) {
      await chooseFilter(page, 'Tipo', 'Imágenes');
      // Each moment is a state that stays once reached, so it is checked after the click.
      await moment();
      await chooseFilter(page, 'Orden', 'Más pequeños primero');
      await expect.poll(count, { timeout: 15_000 }).toBe(String((LIBRARY * 3) / 5));
      // Both stay chosen while the answers of both land: the URL never loses one of them.
      const searches = await valuesOver(page, 1500, 'search');
      expect(searches).toHaveLength(1);
      const url = new URL(page.url());
      expect(url.searchParams.get('type')).toBe('image');
      expect(url.searchParams.get('sort')).toBe('size_asc');
      expect(url.searchParams.get('q')).toBe(marker);
      await chooseFilter(page, 'Tipo', 'Todos');
      await chooseFilter(page, 'Orden', 'Más recientes primero');
      await expect.poll(count, { timeout: 15_000 }).toBe(String(LIBRARY));
    }
    await context.close();
  });

  it('stays at the top when a filter goes back to a list already seen', async () => {
    // Older photos, then newer documents: the newest photo is the first of 'Imágenes' and the 81st of 'Todos'.
    const own = `top${crypto.randomUUID().slice(0, 6)}`;
    await insertFiles(own, 80, { extension: 'jpg', width: 4000, height: 3000 });
    await insertFiles(own, 80, { extension: 'pdf' });
    const { context, page } = await signedInAs(browser, 'ADMIN', {
      viewport: 'desktop',
      landing: `/private/files?q=${own}`,
    });
    const count = () => page.getByTestId('files-count').textContent();
    await expect.poll(count, { timeout: 20_000 }).toBe('160');
    await chooseFilter(page, 'Tipo', 'Imágenes');
    await expect.poll(count).toBe('80');
    await page.locator('.file-card').first().waitFor();
    // 'Todos' comes back from the cache at once: a new list, not files loaded above the ones in view.
    await chooseFilter(page, 'Tipo', 'Todos');
    await expect.poll(count).toBe('160');
    await nextFrames(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await filterChip(page, 'Tipo').click();
    // The chip's menu opens under it, on screen (with the page scrolled away it opened above the window).
    const item = await page.getByRole('menuitemradio', { name: 'Imágenes', exact: true }).boundingBox();
    expect(item!.y).toBeGreaterThan(0);
    expect(item!.y + item!.height).toBeLessThan(900);
    await context.close();
  });

  it('moves between cards with the arrow keys, selects with Space, and previews in a lightbox', async () => {
    const { context, page } = await openLibrary('desktop');
    await chooseFilter(page, 'Tipo', 'Imágenes');
    await expect.poll(() => page.getByTestId('files-count').textContent()).toBe(String((LIBRARY * 3) / 5));
    const first = page.locator('.file-card-link').first();
    await first.focus();
    const focused = () => page.evaluate(() => Number((document.activeElement as HTMLElement).dataset.index));
    await page.keyboard.press('ArrowRight');
    await expect.poll(focused).toBe(1);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBeGreaterThan(1);
    await page.keyboard.press(' ');
    await page.getByRole('region', { name: 'Archivos seleccionados' }).getByText('1 seleccionado').waitFor();
    await screenshot(page, 'files-keyboard-selection');

    const firstName = (await page.locator('.file-card .file-name').first().textContent())!;
    await page.getByRole('button', { name: `Información de ${firstName}`, exact: true }).click();
    await page.getByRole('button', { name: 'Ver en grande', exact: true }).click();
    const lightbox = page.getByRole('dialog', { name: firstName });
    await lightbox.waitFor();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('dialog').locator('h2').textContent()).not.toBe(firstName);
    await screenshot(page, 'files-lightbox');
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await context.close();
  });

  it('shows designed empty and loading states, and a hint for searches under 3 characters', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page } = await signedInAs(browser, 'ADMIN', {
        viewport,
        landing: `/private/files?q=${marker}nada`,
      });
      await page.getByText('Ningún archivo coincide con estos filtros').waitFor();
      await screenshot(page, `files-empty-${viewport}`);
      await expectAccessible(page);
      await page.getByLabel('Buscar').fill('ab');
      await page.getByText('Escribe al menos 3 caracteres para buscar.').waitFor();

      // Loading: hold the list request back to see what a slow connection shows.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/rest\/v1\/rpc\/search_files/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(appUrl(`/private/files?q=${marker}`));
      await page.getByRole('status').filter({ hasText: 'Cargando archivos…' }).waitFor();
      await screenshot(page, `files-loading-${viewport}`);
      release();
      await expect.poll(() => page.getByTestId('files-count').textContent()).toBe(String(LIBRARY));
      await context.close();
    }
  });

  it("finds the files still missing their English texts with 'Sin traducir'", async () => {
    const other = `trd${crypto.randomUUID().slice(0, 6)}`;
    await insertFiles(other, 1, { name: () => `${other} Piscina`, name_en: `${other} Pool` });
    await insertFiles(other, 1, { name: () => `${other} Terraza` });
    const { context, page } = await signedInAs(browser, 'ADMIN', { landing: `/private/files?q=${other}` });
    await expect.poll(() => page.getByTestId('files-count').textContent()).toBe('2');
    await chooseFilter(page, 'Traducción', 'Sin traducir');
    await expect.poll(() => page.getByTestId('files-count').textContent()).toBe('1');
    await expect.poll(() => page.locator('.file-card .file-name').allTextContents()).toEqual([`${other} Terraza`]);
    expect(new URL(page.url()).searchParams.get('translation')).toBe('missing');
    await page.getByRole('heading', { name: '1 archivo filtrado' }).waitFor();
    await context.close();
  });

  it('folds the menu behind a button on a phone and keeps the selection bar in view', async () => {
    const { context, page } = await openLibrary('phone');
    const menu = page.getByRole('navigation', { name: 'Principal' });
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menú' }).click();
    await menu.getByRole('link', { name: 'Etiquetas' }).waitFor({ state: 'visible' });
    await screenshot(page, 'shell-menu-open-phone');
    await page.getByRole('button', { name: 'Menú' }).click();
    expect(await menu.isVisible()).toBe(false);

    await page.locator('.file-card input[type="checkbox"]').first().click();
    const bar = page.getByRole('region', { name: 'Archivos seleccionados' });
    await page.evaluate(() => window.scrollTo(0, 2500));
    await page.waitForFunction(() => window.scrollY > 0);
    const box = await bar.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeLessThan(viewports.phone.height);
    await screenshot(page, 'files-selection-phone');
    await context.close();
  });
});
