import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { appUrl, expectAccessible, launchBrowser, layoutSettled, screenshot, viewports } from '../helpers/browser.ts';
import { client, signedInSeed } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * Credits travel with the picture: the public file page, the public collection and a share link's page (its
 * cards and its lightbox) show the author, the credit line and the copyright, and nothing else of what the
 * file says about itself (no camera, no position).
 */

let browser: Browser;
const service = () => client('service_role');
const marker = `credito${crypto.randomUUID().slice(0, 6)}`;
const credits = { creator: 'José Ñúñez', credit: 'Agencia Sol', copyright: '© 2026 Hoteles Sol' };
let pictureId = '';
let collectionId = '';

/** A published picture with real bytes, its rights stated, and embedded metadata that must stay private. */
async function publishedPicture(name: string, colour: string) {
  const id = crypto.randomUUID();
  const bytes = await sharp({ create: { width: 1200, height: 800, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
  const upload = await service().storage.from('media').upload(`${id}/foto.jpg`, bytes, { contentType: 'image/jpeg' });
  if (upload.error) throw upload.error;
  const { error } = await service()
    .from('files')
    .insert({
      id,
      file_name: 'foto.jpg',
      object_path: `${id}/foto.jpg`,
      original_file_name: `${marker}.jpg`,
      name_es: name,
      name_en: name,
      size: bytes.length,
      extension: 'jpg',
      width: 1200,
      height: 800,
      processing: false,
      published: true,
      uploader_id: seedAccounts.ADMIN.id,
      rights_creator: credits.creator,
      rights_credit: credits.credit,
      rights_copyright: credits.copyright,
    });
  if (error) throw error;
  const metadata = await service()
    .from('file_metadata')
    .insert({ file_id: id, camera_make: 'Canon', camera_model: 'EOS R5', gps_latitude: 39.5, gps_longitude: 2.6 });
  if (metadata.error) throw metadata.error;
  return id;
}

beforeAll(async () => {
  pictureId = await publishedPicture(`${marker} terraza`, '#2a7ab8');
  const collection = await service()
    .from('collections')
    .insert({ name: `Campaña ${marker}`, is_public: true })
    .select('id')
    .single();
  if (collection.error) throw collection.error;
  collectionId = collection.data.id;
  const link = await service().from('collection_files').insert({ collection_id: collectionId, file_id: pictureId });
  if (link.error) throw link.error;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function visitor(viewport: keyof typeof viewports) {
  const context = await browser.newContext({ viewport: viewports[viewport] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  return { context, page };
}

describe('credits on public pages', () => {
  it('the public file page says who made the picture and who to credit, never where it was taken', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page } = await visitor(viewport);
      await page.goto(appUrl(`/file/${pictureId}`));
      await page.getByRole('heading', { name: `${marker} terraza` }).waitFor();
      const fact = (term: string) => page.locator(`.public-facts dt:text-is("${term}") + dd`);
      expect(await fact('Autor').textContent()).toBe(credits.creator);
      expect(await fact('Crédito').textContent()).toBe(credits.credit);
      expect(await fact('Copyright').textContent()).toBe(credits.copyright);
      expect(await page.getByText('Canon').count()).toBe(0);
      expect(await page.getByText('39,5').count()).toBe(0);
      await expect
        .poll(() => page.locator('.public-file-preview img').evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      await layoutSettled(page);
      await screenshot(page, `public-file-credits-${viewports[viewport].width}`);
      await expectAccessible(page);
      if (viewport === 'desktop') {
        await page.goto(appUrl(`/file/${pictureId}?lang=en`));
        await page.locator('.public-facts dt:text-is("Author")').waitFor();
        expect(await fact('Credit').textContent()).toBe(credits.credit);
      }
      await context.close();
    }
  });

  it('the public collection and a share link show the credit line under each picture and in the lightbox', async () => {
    const { context, page } = await visitor('phone');
    await page.goto(appUrl(`/collection/${collectionId}`));
    await page.getByRole('heading', { name: `Campaña ${marker}` }).waitFor();
    const line = `${credits.creator} · ${credits.credit} · ${credits.copyright}`;
    expect(await page.locator('.public-card-credit').allTextContents()).toEqual([line]);
    await layoutSettled(page);
    await screenshot(page, 'public-collection-credits-390');
    await expectAccessible(page);

    const admin = await signedInSeed('ADMIN');
    const { data, error } = await admin.rpc('create_share_link', {
      p_name: `Prensa ${marker}`,
      p_expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      p_file_ids: [pictureId],
    });
    expect(error).toBeNull();
    const { token } = data as { token: string };
    await page.setViewportSize(viewports.desktop);
    await page.goto(appUrl(`/s/${token}`));
    await page.getByRole('heading', { name: `Prensa ${marker}` }).waitFor();
    expect(await page.locator('.share-card-credit').allTextContents()).toEqual([line]);
    await page.getByRole('button', { name: `Ver a tamaño grande: ${marker} terraza` }).click();
    const lightbox = page.getByRole('dialog', { name: `${marker} terraza` });
    await lightbox.getByText(line).waitFor();
    // The picture itself, drawn: the credit line alone would pass with a broken image.
    await expect
      .poll(() =>
        lightbox.locator('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0),
      )
      .toBe(true);
    await layoutSettled(page);
    await screenshot(page, 'share-link-lightbox-credits-1440');
    await expectAccessible(page);
    await context.close();
  });
});
