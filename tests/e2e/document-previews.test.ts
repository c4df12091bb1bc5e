import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client, signedInSeed } from '../helpers/clients.ts';
import { overlappingElements } from '../helpers/overlaps.ts';
import { eventually } from '../helpers/checks.ts';
import { a4Pdf } from '../helpers/pdf.ts';

/**
 * Documents are not blank tiles: a PDF's card shows its first page, rendered on the server after
 * upload; a DOCX keeps the extension tile. The same picture is the detail page's preview, opens in the
 * lightbox, and is what the Papelera shows once the file is deleted.
 */

let browser: Browser;
let service: SupabaseClient;
const marker = `docprev${crypto.randomUUID().slice(0, 6)}`;
const pdfName = `${marker} Carta de vinos`;
const docxName = `${marker} Contrato de proveedor`;
let pdfId: string;

/** Stores `bytes` and writes the file row still processing, as an upload does; post-processing does the rest. */
async function upload(bytes: Buffer, extension: string, name: string, contentType: string) {
  const id = crypto.randomUUID();
  const objectPath = `${id}/${crypto.randomUUID()}.${extension}`;
  const stored = await service.storage.from('media').upload(objectPath, bytes, { contentType });
  if (stored.error) throw stored.error;
  const inserted = await service.from('files').insert({
    id,
    file_name: objectPath.split('/')[1],
    object_path: objectPath,
    original_file_name: `${name}.${extension}`,
    name_es: name,
    name_en: name,
    extension,
  });
  if (inserted.error) throw inserted.error;
  await eventually(async () => {
    const { data } = await service.from('files').select('processing').eq('id', id).single();
    return data?.processing === false ? true : undefined;
  });
  return id;
}

/** A picture that the browser really decoded (not a broken image, not a 1-pixel placeholder). */
const decoded = (image: Locator) =>
  image.evaluate((element) => {
    const img = element as HTMLImageElement;
    return img.complete && img.naturalWidth > 50 && img.naturalHeight > 50;
  });

const card = (page: Page, name: string) => page.locator('.file-card', { has: page.getByText(name, { exact: true }) });

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
  pdfId = await upload(a4Pdf('Carta de vinos'), 'pdf', pdfName, 'application/pdf');
  // Not a real Word file: the point is that nothing but a PDF gets a picture.
  await upload(
    Buffer.from('PK\u0003\u0004 contrato'),
    'docx',
    docxName,
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  );
  const { data } = await service.from('files').select('preview_path').eq('id', pdfId).single();
  expect(data?.preview_path).toMatch(/\.pdf\.preview\.jpg$/);
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe('document cards', () => {
  for (const viewport of ['desktop', 'phone'] as const) {
    it(`show a PDF's first page and a DOCX's extension tile (${viewport})`, async () => {
      const { context, page } = await signedInAs(browser, 'ADMIN', {
        viewport,
        landing: `/private/files?q=${encodeURIComponent(marker)}`,
      });
      await expect.poll(() => page.getByTestId('files-count').textContent(), { timeout: 20_000 }).toBe('2');
      const pdfPage = card(page, pdfName).locator('img.file-page');
      await expect.poll(() => decoded(pdfPage), { timeout: 20_000 }).toBe(true);
      // The page stands upright, as an A4 sheet does, inside its card.
      const box = (await pdfPage.boundingBox())!;
      expect(box.height / box.width).toBeGreaterThan(1.3);
      const media = (await card(page, pdfName).locator('.file-card-media').boundingBox())!;
      expect(box.height).toBeLessThanOrEqual(media.height);
      expect(await card(page, pdfName).locator('.file-meta').textContent()).toMatch(/^PDF · 1,\d+ KB · /);

      const docx = card(page, docxName);
      expect(await docx.locator('img').count()).toBe(0);
      expect(await docx.locator('.file-tile-document').textContent()).toBe('DOCX');

      expect(await overlappingElements(page)).toEqual([]);
      await screenshot(page, `document-previews-${viewport}`);
      await expectAccessible(page);
      await context.close();
    });
  }
});

describe('the PDF picture elsewhere', () => {
  it('is the detail page preview and opens in the lightbox', async () => {
    const { context, page } = await signedInAs(browser, 'ADMIN', { landing: `/private/file/${pdfId}` });
    const preview = page.getByRole('img', { name: `Primera página de ${pdfName}` });
    await expect.poll(() => decoded(preview), { timeout: 20_000 }).toBe(true);
    await screenshot(page, 'document-preview-detail');
    await expectAccessible(page);
    await page.locator('.file-preview-button').click();
    const lightbox = page.getByRole('dialog', { name: pdfName });
    const large = lightbox.getByRole('img', { name: `Primera página de ${pdfName}` });
    await expect.poll(() => decoded(large), { timeout: 20_000 }).toBe(true);
    // The lightbox's 2048×1536 size: the page is rendered at 1536 pixels high, so it is sharp there.
    expect(await large.evaluate((img) => (img as HTMLImageElement).naturalHeight)).toBe(1536);
    await screenshot(page, 'document-preview-lightbox');
    await context.close();
  });

  it('is what the Papelera shows once the file is deleted', async () => {
    const admin = await signedInSeed('ADMIN');
    expect((await admin.rpc('delete_files', { p_file_ids: [pdfId] })).error).toBeNull();
    const { context, page } = await signedInAs(browser, 'ADMIN', { landing: '/private/trash' });
    const row = page.getByRole('list', { name: 'Archivos en la papelera' }).getByRole('listitem', { name: pdfName });
    const picture = row.locator('img.trash-thumbnail-page');
    await expect.poll(() => decoded(picture).catch(() => false), { timeout: 30_000 }).toBe(true);
    await screenshot(page, 'document-preview-trash');
    await expectAccessible(page);
    await page.goto(appUrl('/private/files'));
    await context.close();
  });
});
