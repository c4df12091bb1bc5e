import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import {
  appUrl,
  expectAccessible,
  launchBrowser,
  screenshot,
  signIn,
  signedInAs,
  viewports,
  valuesOver,
} from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { chooseFilter } from '../helpers/filters.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * A way through the months of a large library: the timeline along the grid's right edge jumps to any month
 * (loading the page that starts there, not every page before it), says which month is under the pointer, works
 * with the keyboard and with a finger at 390 px without covering a card, and is not there for a sort that is
 * not by date. Back from a file returns to exactly where the person was, and a small picture is never drawn
 * larger than its own pixels.
 */

let browser: Browser;
const marker = `scrub${crypto.randomUUID().slice(0, 6)}`;
const FILES_PER_MONTH = 30;
/** Two years, newest first: 2026-10 … 2024-11, each month's files in the middle of it. */
const MONTHS = Array.from({ length: 24 }, (_, index) => {
  const date = new Date(Date.UTC(2026, 9 - index, 15, 12));
  return {
    key: date.toISOString().slice(0, 7),
    uploadedOn: date.toISOString(),
    label: new Intl.DateTimeFormat('es-ES', { month: 'long', year: 'numeric' }).format(date),
  };
});
const TOTAL = MONTHS.length * FILES_PER_MONTH;
/** What the window shows (the timeline is fixed to it; a full-page capture would show the page's top). */
const SCREENSHOTS = 'artifacts/screenshots';
const slider = (page: Page) => page.getByRole('slider', { name: 'Línea de tiempo' });

beforeAll(async () => {
  for (const month of MONTHS) {
    await insertFiles(marker, FILES_PER_MONTH, {
      extension: 'jpg',
      width: 1600,
      height: 1100,
      uploaded_on: month.uploadedOn,
      name: (index) => `${marker} ${month.key} ${index}`,
    });
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function openLibrary(page: Page, { timeline = true } = {}) {
  await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 20_000 }).toBe(String(TOTAL));
  await page.locator('.file-card').first().waitFor();
  if (timeline) await slider(page).waitFor();
}

/** Every card on screen that the timeline covers (more than a pixel). */
async function cardsUnderTimeline(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bar = document.querySelector('.timeline-scrubber')!.getBoundingClientRect();
    return [...document.querySelectorAll('.file-card')]
      .filter((card) => {
        const box = card.getBoundingClientRect();
        return box.right > bar.left + 1 && box.bottom > bar.top && box.top < bar.bottom;
      })
      .map((card) => card.querySelector('.file-name')?.textContent ?? '');
  });
}

/** Where a month's heading is against the window's top edge, or null when it is not drawn. */
const headingTop = (page: Page, label: string) =>
  page.evaluate((text) => {
    const heading = [...document.querySelectorAll('.file-grid-month')].find((h) => h.textContent === text);
    return heading ? Math.round(heading.getBoundingClientRect().top) : null;
  }, label);

/** Resolves once the window has stopped scrolling (a wheel scrolls smoothly, after mouse.wheel returns). */
async function scrollSettled(page: Page) {
  await page.waitForFunction(
    () =>
      new Promise((done) => {
        const y = window.scrollY;
        setTimeout(() => done(window.scrollY === y), 300);
      }),
  );
}

/** The search_files requests the page makes from now on. */
function countListRequests(page: Page) {
  let count = 0;
  page.on('request', (request) => {
    if (request.url().includes('/rpc/search_files')) count += 1;
  });
  return () => count;
}

/** A point on the timeline at `share` (0…1) of its height. */
async function pointOnTimeline(page: Page, share: number) {
  const box = (await slider(page).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height * share };
}

describe('the timeline of the files grid', () => {
  it('jumps to any month at 1440 px by pointer and keyboard, loading only the pages from there', async () => {
    const { context, page } = await signedInAs(browser, 'ADMIN', { landing: `/private/files?q=${marker}` });
    await openLibrary(page);
    expect(await cardsUnderTimeline(page)).toEqual([]);
    const oldest = MONTHS.at(-1)!;
    expect(await headingTop(page, oldest.label)).toBeNull();

    // Pointing says which month is under the pointer.
    const nearEnd = await pointOnTimeline(page, 0.99);
    await page.mouse.move(nearEnd.x, nearEnd.y);
    await expect.poll(() => page.locator('.timeline-label-pointed').textContent()).toBe(oldest.label);
    await page.screenshot({ path: `${SCREENSHOTS}/files-scrubber-desktop.png` });

    // A click loads the page that starts at that month: its heading at the top, a page or two read, not 14.
    const requests = countListRequests(page);
    await page.mouse.down();
    await page.mouse.up();
    await expect.poll(() => headingTop(page, oldest.label)).toBeGreaterThanOrEqual(-2);
    expect(await headingTop(page, oldest.label)).toBeLessThan(60);
    expect(new URL(page.url()).searchParams.get('mes')).toBe(oldest.key);
    expect(
      await page.locator('.file-card .file-name', { hasText: `${marker} ${oldest.key} ` }).count(),
    ).toBeGreaterThan(0);
    expect(requests()).toBeLessThanOrEqual(3);

    // The months before it are read into place above it (the list starts at the month) without moving what is
    // on screen; scrolling up then shows them.
    const previous = MONTHS.at(-2)!;
    await expect
      .poll(() => page.locator('.file-card .file-name', { hasText: `${marker} ${previous.key} ` }).count())
      .toBeGreaterThan(0);
    // Where the month's heading settles once they are in: the rows above arrive in renders of their own (each
    // page, then the grid's rows for the new scroll position), so one read can fall between two of them.
    await expect
      .poll(() => headingTop(page, oldest.label))
      .toSatisfy((top: number | null) => top !== null && top >= -2 && top < 60);
    await page.mouse.move(700, 400);
    await page.mouse.wheel(0, -400);
    await scrollSettled(page);
    await expect.poll(() => headingTop(page, oldest.label)).toBeGreaterThan(300);
    expect(await headingTop(page, oldest.label)).toBeLessThan(500);

    // The keyboard: a slider, Home to the newest month, End to the oldest, arrows a month at a time.
    await slider(page).focus();
    await page.keyboard.press('Home');
    await expect.poll(() => headingTop(page, MONTHS[0]!.label)).toBeLessThan(60);
    await expect.poll(() => slider(page).getAttribute('aria-valuetext')).toBe(MONTHS[0]!.label);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => slider(page).getAttribute('aria-valuetext')).toBe(MONTHS[1]!.label);
    await page.keyboard.press('End');
    await expect.poll(() => headingTop(page, oldest.label)).toBeLessThan(60);
    await expect.poll(() => slider(page).getAttribute('aria-valuetext')).toBe(oldest.label);
    expect(await cardsUnderTimeline(page)).toEqual([]);
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOTS}/files-scrubber-desktop-jumped.png` });

    // Not a date sort: no months, no timeline. (Back to the newest month first: a list that starts at a month
    // reads earlier months in above what is on screen, so its top is the timeline's first month.)
    await slider(page).focus();
    await page.keyboard.press('Home');
    await expect.poll(() => new URL(page.url()).searchParams.get('mes')).toBeNull();
    await page.evaluate(() => window.scrollTo(0, 0));
    await chooseFilter(page, 'Orden', 'Más grandes primero');
    await expect.poll(() => slider(page).count()).toBe(0);
    await context.close();
  });

  it('jumps with a tap at 390 px on a touch phone without covering a card', async () => {
    const context = await browser.newContext({ viewport: viewports.phone, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(appUrl(`/login?redirect=${encodeURIComponent(`/private/files?q=${marker}`)}`));
    await signIn(page, seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
    await openLibrary(page);
    expect(await cardsUnderTimeline(page)).toEqual([]);
    const bar = (await slider(page).boundingBox())!;
    expect(bar.x + bar.width).toBeLessThanOrEqual(viewports.phone.width);
    expect(bar.width).toBeGreaterThanOrEqual(24);
    await page.screenshot({ path: `${SCREENSHOTS}/files-scrubber-phone.png` });
    await expectAccessible(page);

    const target = MONTHS[18]!;
    const months = await page.evaluate(() => document.querySelectorAll('.timeline-year').length);
    expect(months).toBeGreaterThan(0);
    const point = await pointOnTimeline(page, (18 + 0.5) / MONTHS.length);
    await page.touchscreen.tap(point.x, point.y);
    await expect.poll(() => headingTop(page, target.label)).not.toBeNull();
    expect(await headingTop(page, target.label)).toBeLessThan(60);
    expect(await cardsUnderTimeline(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/files-scrubber-phone-jumped.png` });
    await context.close();
  });
});

/** The card nearest the middle of the window: its name and where it is drawn. */
const middleCard = (page: Page) =>
  page.evaluate(() => {
    const middle = window.innerHeight / 2;
    const cards = [...document.querySelectorAll('.file-card')].map((card) => ({
      name: card.querySelector('.file-name')!.textContent!,
      top: card.getBoundingClientRect().top,
      left: card.getBoundingClientRect().left,
    }));
    return cards.sort((a, b) => Math.abs(a.top - middle) - Math.abs(b.top - middle))[0]!;
  });

const cardPlace = (page: Page, name: string) =>
  page.evaluate((text) => {
    const card = [...document.querySelectorAll('.file-card')].find(
      (candidate) => candidate.querySelector('.file-name')?.textContent === text,
    );
    if (!card) return null;
    const box = card.getBoundingClientRect();
    return { top: box.top, left: box.left };
  }, name);

describe('back from a file', () => {
  for (const viewport of ['desktop', 'phone'] as const) {
    it(`returns to exactly where the person was, far down the grid (${viewport})`, async () => {
      // A desktop browser draws its scrollbar, which takes room from the page while it is long enough to scroll.
      const withScrollbars = viewport === 'desktop' ? await launchBrowser({ scrollbars: true }) : browser;
      const { context, page } = await signedInAs(withScrollbars, 'ADMIN', {
        viewport,
        landing: `/private/files?q=${marker}`,
      });
      await openLibrary(page, { timeline: false });
      // Far down: several pages loaded on the way.
      for (let step = 0; step < 40 && (await page.evaluate(() => window.scrollY)) < 9000; step += 1) {
        await page.mouse.wheel(0, 900);
        await expect.poll(() => page.locator('text=Cargando más archivos…').count()).toBe(0);
      }
      await scrollSettled(page);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThanOrEqual(9000);
      const card = await middleCard(page);
      await page.getByRole('link', { name: card.name, exact: true }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/private/file/'));
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.goBack();
      await expect.poll(() => cardPlace(page, card.name)).not.toBeNull();
      // Settled: the place holds for a moment (no late jump once the list is read again).
      expect(await valuesOver(page, 1000, 'scrollY')).toHaveLength(1);
      const place = (await cardPlace(page, card.name))!;
      expect(Math.abs(place.top - card.top)).toBeLessThanOrEqual(3);
      expect(Math.abs(place.left - card.left)).toBeLessThanOrEqual(3);
      await context.close();
      if (withScrollbars !== browser) await withScrollbars.close();
    });
  }
});

describe('small pictures', () => {
  it('draws a picture smaller than its cell at its own size, centred, never upscaled', async () => {
    const small = `${marker}small`;
    const service = client('service_role');
    const id = crypto.randomUUID();
    const objectPath = `${id}/small.png`;
    const bytes = await sharp({ create: { width: 120, height: 90, channels: 3, background: '#0084D8' } })
      .png()
      .toBuffer();
    expect(
      (await service.storage.from('media').upload(objectPath, bytes, { contentType: 'image/png' })).error,
    ).toBeNull();
    // Processed already: its size known, as post-processing records it.
    await insertFiles(small, 1, {
      id,
      object_path: objectPath,
      file_name: 'small.png',
      extension: 'png',
      width: 120,
      height: 90,
      processing: false,
    });

    const { context, page } = await signedInAs(browser, 'ADMIN', { landing: `/private/files?q=${small}` });
    const picture = page.locator('.file-card img.file-thumbnail');
    await picture.waitFor();
    await expect
      .poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
      .toBe(true);
    const drawn = (await picture.boundingBox())!;
    const cell = (await page.locator('.file-card-media').boundingBox())!;
    expect(cell.height).toBeGreaterThan(150);
    expect(drawn.width).toBeLessThanOrEqual(120);
    expect(drawn.height).toBeLessThanOrEqual(90);
    // Centred in its cell.
    expect(Math.abs(drawn.x + drawn.width / 2 - (cell.x + cell.width / 2))).toBeLessThanOrEqual(1);
    expect(Math.abs(drawn.y + drawn.height / 2 - (cell.y + cell.height / 2))).toBeLessThanOrEqual(1);
    await screenshot(page, 'files-small-picture');
    await context.close();
  });
});
