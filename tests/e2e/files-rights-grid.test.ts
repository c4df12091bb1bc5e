import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { expectAccessible, launchBrowser, layoutSettled, screenshot } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { chooseFilter, filterChip } from '../helpers/filters.ts';
import { madridDay, shownDay, signedInInMadrid } from '../helpers/rights.ts';

/**
 * The files screen and rights: the cards' 'Derechos caducados' and 'Caducan pronto' badges, the 'Derechos'
 * filter, the admin's count of active files whose rights expire within 30 days, and the sort by capture date
 * whose month headings are the capture months (files the camera did not date last, under their own heading).
 */

let browser: Browser;
const marker = `vigencia${crypto.randomUUID().slice(0, 6)}`;
const names = {
  expired: `${marker} caducada`,
  expiring: `${marker} caduca pronto`,
  valid: `${marker} vigente`,
  unstated: `${marker} sin fecha`,
};

beforeAll(async () => {
  await insertFiles(marker, 1, { name: () => names.expired, rights_expire_on: madridDay(-1), rights_creator: 'Ana' });
  await insertFiles(marker, 1, {
    name: () => names.expiring,
    rights_expire_on: madridDay(10),
    rights_creator: 'Ana',
    published: true,
  });
  await insertFiles(marker, 1, { name: () => names.valid, rights_expire_on: madridDay(90), rights_creator: 'Ana' });
  await insertFiles(marker, 1, { name: () => names.unstated });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const cardNamed = (page: import('playwright-core').Page, name: string) =>
  page.locator('.file-card', { has: page.locator('.file-name', { hasText: name }) });

describe('rights on the files screen', () => {
  it("badges expired and soon-expiring files, and the 'Derechos' filter finds each kind", async () => {
    const { context, page } = await signedInInMadrid(browser, 'ADMIN', `/private/files?q=${marker}`);
    const shown = () => page.locator('.file-card .file-name').allTextContents();
    await expect.poll(async () => (await shown()).length).toBe(4);
    expect(await cardNamed(page, names.expired).locator('.file-badge').allTextContents()).toContain(
      'Derechos caducados',
    );
    expect(await cardNamed(page, names.expired).getByText('Derechos caducados').getAttribute('title')).toBe(
      `Los derechos caducaron el ${shownDay(madridDay(-1))}`,
    );
    expect(await cardNamed(page, names.expiring).locator('.file-badge').allTextContents()).toContain('Caducan pronto');
    for (const name of [names.valid, names.unstated]) {
      const badges = await cardNamed(page, name).locator('.file-badge').allTextContents();
      expect(badges.filter((badge) => /Caducan|caducados/.test(badge))).toEqual([]);
    }
    await layoutSettled(page);
    await screenshot(page, 'files-rights-badges-1440');
    await expectAccessible(page);

    await chooseFilter(page, 'Derechos', 'Caducados');
    await expect.poll(shown).toEqual([names.expired]);
    expect(new URL(page.url()).searchParams.get('rights')).toBe('expired');
    await chooseFilter(page, 'Derechos', 'Caducan en 30 días');
    await expect.poll(shown).toEqual([names.expiring]);
    await chooseFilter(page, 'Derechos', 'Sin autor');
    await expect.poll(shown).toEqual([names.unstated]);
    expect(await filterChip(page, 'Derechos').textContent()).toContain('Sin autor');
    await chooseFilter(page, 'Derechos', 'Todos');
    await expect.poll(async () => (await shown()).length).toBe(4);
    await context.close();
  });

  it("shows the 'Derechos' filter in the phone's sheet, and the badges on a phone's cards", async () => {
    const { context, page } = await signedInInMadrid(browser, 'ADMIN', `/private/files?q=${marker}`, 'phone');
    await expect.poll(() => page.locator('.file-card').count()).toBe(4);
    await layoutSettled(page);
    await screenshot(page, 'files-rights-badges-390');
    await page.getByRole('button', { name: /^Filtros/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Filtros' });
    await sheet.getByRole('group', { name: 'Derechos' }).getByRole('radio', { name: 'Caducados' }).click();
    await page.waitForURL(/rights=expired/);
    await sheet.getByRole('group', { name: 'Derechos' }).scrollIntoViewIfNeeded();
    await layoutSettled(page);
    await screenshot(page, 'files-rights-filter-sheet-390');
    await expectAccessible(page);
    await sheet.getByRole('button', { name: /^Ver \d+ archivos?$/ }).click();
    await expect.poll(() => page.locator('.file-card .file-name').allTextContents()).toEqual([names.expired]);
    await context.close();
  });

  it('tells an admin how many active files expire within 30 days and links to them', async () => {
    const { data: expected, error } = await client('service_role').rpc('count_rights_expiring_soon');
    expect(error).toBeNull();
    expect(expected).toBeGreaterThanOrEqual(1);
    const { context, page } = await signedInInMadrid(browser, 'ADMIN', '/private/files');
    const notice = page.getByRole('status').filter({ hasText: 'caducan en los próximos 30 días' });
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(new RegExp(`^${expected as number} archivos? activos?`));
    await layoutSettled(page);
    await screenshot(page, 'files-rights-notice-1440');
    await notice.getByRole('link', { name: 'Ver: Caducan en 30 días' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('rights')).toBe('expiring');
    expect(new URL(page.url()).searchParams.get('status')).toBe('published');
    await expect.poll(async () => Number(await page.getByTestId('files-count').textContent())).toBe(expected);
    await context.close();

    // Not for an uploader: the count is the admins' business.
    const uploader = await signedInInMadrid(browser, 'UPLOADER', '/private/files');
    await uploader.page.getByTestId('files-count').filter({ hasText: /^\d+$/ }).waitFor();
    expect(await uploader.page.getByText('caducan en los próximos 30 días').count()).toBe(0);
    await uploader.context.close();
  });
});

describe('the sort by capture date', () => {
  it('orders by capture date with the capture months as headings, undated files last', async () => {
    const captureMarker = `captura${crypto.randomUUID().slice(0, 6)}`;
    const month = (label: string, captured_at: string | null, count: number) =>
      insertFiles(captureMarker, count, {
        extension: 'jpg',
        width: 1600,
        height: 1100,
        captured_at,
        // Uploaded in the opposite order, so the upload sort would read differently.
        uploaded_on: captured_at ? '2026-01-05T10:00:00Z' : '2026-11-20T10:00:00Z',
        name: (index) => `${captureMarker} ${label} ${index}`,
      });
    await month('julio', '2026-07-14T09:30:00Z', 3);
    await month('marzo', '2025-03-10T12:00:00Z', 2);
    await month('sin fecha', null, 2);

    // The undated files' heading ('Sin fecha de captura'; the timeline's grid calls it 'Sin fecha').
    const undated = expect.stringMatching(/^Sin fecha/);
    const { context, page } = await signedInInMadrid(browser, 'ADMIN', `/private/files?q=${captureMarker}`);
    const headings = page.locator('.file-grid-month');
    await expect.poll(() => headings.allTextContents()).toEqual(['noviembre de 2026', 'enero de 2026']);
    await chooseFilter(page, 'Orden', 'Fecha de captura (recientes primero)');
    await expect.poll(() => headings.allTextContents()).toEqual(['julio de 2026', 'marzo de 2025', undated]);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('capturedAt_desc');
    await layoutSettled(page);
    await screenshot(page, 'files-capture-sort-1440');
    await expectAccessible(page);

    await chooseFilter(page, 'Orden', 'Fecha de captura (antiguas primero)');
    await expect.poll(() => headings.allTextContents()).toEqual(['marzo de 2025', 'julio de 2026', undated]);
    await page.setViewportSize({ width: 390, height: 844 });
    await layoutSettled(page);
    await screenshot(page, 'files-capture-sort-390');
    await context.close();
  });
});
