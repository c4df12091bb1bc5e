import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { insertFiles } from '../helpers/factories.ts';
import { overlappingElements } from '../helpers/overlaps.ts';
import { chooseFilter } from '../helpers/filters.ts';

/**
 * Sorted by date, the files grid reads like a photo timeline: a heading per month ('noviembre de
 * 2026'), and the month being scrolled through stays at the top of the window.
 */

let browser: Browser;
const marker = `linea${crypto.randomUUID().slice(0, 6)}`;
const months = [
  { uploaded_on: '2026-10-15T10:00:00Z', label: 'octubre de 2026', count: 6 },
  { uploaded_on: '2026-08-10T10:00:00Z', label: 'agosto de 2026', count: 40 },
  { uploaded_on: '2026-03-05T10:00:00Z', label: 'marzo de 2026', count: 6 },
];

beforeAll(async () => {
  for (const month of months) {
    await insertFiles(`${marker}`, month.count, {
      extension: 'jpg',
      width: 1600,
      height: 1100,
      uploaded_on: month.uploaded_on,
      name: (index) => `${marker} ${month.label} ${index}`,
    });
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('the files grid by date', () => {
  it('heads each month, newest first, and keeps the current month at the top while scrolling', async () => {
    const { context, page } = await signedInAs(browser, 'ADMIN', { landing: `/private/files?q=${marker}` });
    const headings = page.locator('.file-grid-month');
    await expect.poll(() => headings.allTextContents()).toEqual(months.slice(0, 2).map((month) => month.label));
    expect(await page.getByRole('heading', { level: 2, name: 'octubre de 2026' }).count()).toBe(1);
    expect(await page.locator('.file-grid-sticky').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'files-timeline');

    // Into August: its heading has gone above the top edge, and the window says which month this is.
    const august = page.getByRole('heading', { level: 2, name: 'agosto de 2026' });
    const augustTop = await august.evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
    await page.evaluate((top) => window.scrollTo(0, top + 300), augustTop);
    await expect.poll(() => page.locator('.file-grid-sticky').textContent()).toBe('agosto de 2026');
    expect(await overlappingElements(page)).toEqual([]);
    await page.screenshot({ path: 'artifacts/screenshots/files-timeline-scrolled.png' });

    // The oldest sort reads the months the other way; a sort by size has no months.
    await page.evaluate(() => window.scrollTo(0, 0));
    await chooseFilter(page, 'Orden', 'Más antiguos primero');
    await expect.poll(async () => (await headings.allTextContents())[0]).toBe('marzo de 2026');
    await chooseFilter(page, 'Orden', 'Más grandes primero');
    await expect.poll(() => headings.count()).toBe(0);
    await context.close();
  });
});
