import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { appUrl, expectAccessible, launchBrowser, screenshot, signIn } from '../helpers/browser.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { chooseFilter } from '../helpers/filters.ts';

/** The files screen against the seeded stack: search, filters in the URL, clearing them. */

let browser: Browser;
let page: Page;

const count = async () => Number(await page.getByTestId('files-count').textContent());
const names = () => page.locator('.file-card .file-name').allTextContents();

beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(appUrl('/login'));
  await signIn(page, seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  await page.waitForURL('**/private/files');
  await page.getByTestId('files-count').filter({ hasText: /^\d+$/ }).waitFor();
});

afterAll(async () => {
  await browser?.close();
});

describe('files screen', () => {
  it('searches without accents, after the pause, and keeps the search in the URL', async () => {
    await page.getByLabel('Buscar').fill('cancion');
    await page.waitForURL(/q=cancion/);
    await expect.poll(names).toEqual(['Canción del verano (letra)']);
    // The heading's count is read beside the page: it may land a moment after the cards.
    await expect.poll(count).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'files-search');
    await page.reload();
    await expect.poll(names).toEqual(['Canción del verano (letra)']);
    expect(await page.getByLabel('Buscar').inputValue()).toBe('cancion');
  });

  it('needs every word to match', async () => {
    await page.getByLabel('Buscar').fill('piscina atardecer');
    await expect.poll(names).toEqual(['Piscina principal al atardecer']);
    await page.getByLabel('Buscar').fill('piscina cancion');
    await expect.poll(count).toBe(0);
  });

  it('filters by type and clears every filter', async () => {
    await page.getByRole('button', { name: 'Quitar filtros' }).click();
    await expect.poll(() => page.getByLabel('Buscar').inputValue()).toBe('');
    await expect.poll(count).toBeGreaterThan(1);
    const all = await count();
    await chooseFilter(page, 'Tipo', 'Documentos');
    await page.waitForURL(/type=not-image/);
    await expect.poll(count).toBeLessThan(all);
    await expect
      .poll(async () => {
        const shown = await names();
        return shown.length > 0 && shown.every((name) => !/atardecer|Suite|spa/.test(name));
      })
      .toBe(true);
    await chooseFilter(page, 'Orden', 'Nombre (A-Z)');
    await expect
      .poll(async () => {
        const shown = await names();
        return shown.join('|') === [...shown].sort((a, b) => a.localeCompare(b, 'es')).join('|');
      })
      .toBe(true);
    await screenshot(page, 'files-filtered');
    await page.getByRole('button', { name: 'Quitar filtros' }).click();
    await expect.poll(count).toBe(all);
    // 'Quitar filtros' takes the filters away and keeps the chosen order.
    expect(new URL(page.url()).search).toBe('?sort=nameEs_asc');
  });
});

describe('typing in the search box on a slow machine', () => {
  const box = () => page.getByLabel('Buscar');

  /** Clears the box as a person does (select all, delete) and types a word at a person's pace. */
  async function retype(word: string, msPerKey: number) {
    await box().click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(word, { delay: msPerKey });
  }

  /** Every key typed is still there, after the search has been applied too. */
  async function expectKept(word: string) {
    expect(await box().inputValue()).toBe(word);
    await page.waitForURL(new RegExp(`q=${encodeURIComponent(word).replace(/%20/g, '(\\+|%20)')}`));
    await page.waitForTimeout(1_000);
    expect(await box().inputValue()).toBe(word);
  }

  beforeAll(async () => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  });

  afterAll(async () => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  });

  it.each([50, 150, 400])('keeps every key typed at %i ms a key after clearing a search', async (msPerKey) => {
    await box().fill('piscina');
    await page.waitForURL(/q=piscina/);
    await retype('jardin', msPerKey);
    await expectKept('jardin');
    await retype('spa', msPerKey);
    await expectKept('spa');
  });

  it('keeps every key typed after a filter change', async () => {
    await page.getByRole('button', { name: 'Quitar filtros' }).click();
    await chooseFilter(page, 'Tipo', 'Imágenes');
    await retype('atardecer', 150);
    await expectKept('atardecer');
  });

  it('keeps every key typed while the results of the first words arrive', async () => {
    await retype('piscina', 150);
    // The first word's search is sent and its results arrive while the person goes on typing.
    await page.waitForTimeout(900);
    await page.keyboard.type(' principal', { delay: 150 });
    await expectKept('piscina principal');
    await screenshot(page, 'files-search-typed-slowly');
    await page.getByRole('button', { name: 'Quitar filtros' }).click();
  });
});
