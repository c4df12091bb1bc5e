import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs, viewports } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';

/**
 * A collection's cards, on the admin page and the public page, are all as tall as each other and
 * their titles line up, however long a title is (clamped to two lines).
 */

const marker = `tarjetas${crypto.randomUUID().slice(0, 6)}`;
const LONG = `${marker} Suite junior con terraza privada, vistas al mar y desayuno incluido en la planta más alta del hotel`;
let browser: Browser;
let collectionId = '';

/** Top and height of each card and of its title, rounded to whole pixels. */
async function boxes(cards: Locator, title: string) {
  return Promise.all(
    (await cards.all()).map(async (card) => {
      const box = (await card.boundingBox())!;
      const name = (await card.locator(title).boundingBox())!;
      const lineHeight = await card
        .locator(title)
        .evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
      return {
        top: Math.round(box.y),
        height: Math.round(box.height),
        nameTop: Math.round(name.y),
        lineHeight,
        nameHeight: name.height,
      };
    }),
  );
}

/** Cards of one row share their height and their title's top; no title runs past two lines. */
async function expectEvenCards(cards: Locator, title: string) {
  await expect.poll(() => cards.count()).toBe(3);
  const measured = await boxes(cards, title);
  const firstRow = measured.filter((card) => card.top === measured[0]!.top);
  expect(firstRow.length).toBeGreaterThan(1);
  expect(new Set(firstRow.map((card) => card.height)).size).toBe(1);
  expect(new Set(firstRow.map((card) => card.nameTop)).size).toBe(1);
  for (const card of measured) expect(card.nameHeight).toBeLessThanOrEqual(2 * card.lineHeight + 1);
}

async function atBothSizes(page: Page, check: (name: string) => Promise<void>, name: string) {
  for (const size of ['desktop', 'phone'] as const) {
    await page.setViewportSize(viewports[size]);
    await check(`${name}-${size}`);
  }
}

beforeAll(async () => {
  const service = client('service_role');
  const ids = await insertFiles(marker, 3, {
    published: true,
    name: (index) => (index === 1 ? LONG : `${marker} Piscina ${index}`),
  });
  const { data, error } = await service
    .from('collections')
    .insert({ name: `${marker} Campaña`, is_public: true })
    .select('id')
    .single();
  expect(error).toBeNull();
  collectionId = data!.id as string;
  const links = ids.map((file_id) => ({ collection_id: collectionId, file_id }));
  expect((await service.from('collection_files').insert(links)).error).toBeNull();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  const service = client('service_role');
  await service.from('collections').delete().eq('id', collectionId);
  await service.from('files').delete().like('name_es', `${marker}%`);
});

describe('collection cards', () => {
  it('are even on the admin collection page', async () => {
    const { context, page } = await signedInAs(browser, 'ADMIN', { landing: `/private/collection/${collectionId}` });
    await atBothSizes(
      page,
      async (name) => {
        await expectEvenCards(page.locator('.collection-file'), '.collection-file-name');
        await screenshot(page, name);
      },
      'collection-cards-admin',
    );
    await expectAccessible(page);
    await context.close();
  });

  it('are even on the public collection page', async () => {
    const context = await browser.newContext({ viewport: viewports.desktop });
    const page = await context.newPage();
    await page.goto(appUrl(`/collection/${collectionId}`));
    await atBothSizes(
      page,
      async (name) => {
        await expectEvenCards(page.locator('.public-grid > li'), '.public-card-name');
        await screenshot(page, name);
      },
      'collection-cards-public',
    );
    await expectAccessible(page);
    await context.close();
  });
});
