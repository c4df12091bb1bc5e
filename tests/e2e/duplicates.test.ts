import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { chooseFilter } from '../helpers/filters.ts';

/**
 * Duplicates: a file whose sha256 another file already has carries the 'Duplicado' badge and is
 * what the 'Duplicados' filter lists. The database decides which one is the duplicate (the later upload).
 */

let browser: Browser;
let service: SupabaseClient;

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('duplicates', () => {
  it("badges the later of two files with equal checksums and lists only it under 'Solo duplicados'", async () => {
    const marker = `duplicado${crypto.randomUUID().slice(0, 6)}`;
    const checksum = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) =>
      b.toString(16).padStart(2, '0'),
    ).join('');
    const [original] = await insertFiles(marker, 1, { name: () => `${marker} original`, checksum });
    const [copy] = await insertFiles(marker, 1, { name: () => `${marker} copia`, checksum });
    await insertFiles(marker, 1, { name: () => `${marker} distinto` });
    const { data: flagged } = await service
      .from('files')
      .select('name_es, duplicate_of')
      .like('name_es', `${marker}%`)
      .not('duplicate_of', 'is', null);
    expect(flagged).toEqual([{ name_es: `${marker} copia`, duplicate_of: original }]);
    expect(copy).toBeDefined();

    const { page, context } = await signedInAs(browser, 'ADMIN', { landing: `/private/files?q=${marker}` });
    const cards = page.locator('.file-card');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(3);
    const badged = cards.filter({ has: page.locator('.file-badge-duplicate', { hasText: 'Duplicado' }) });
    expect(await badged.locator('.file-name').allTextContents()).toEqual([`${marker} copia`]);

    await chooseFilter(page, 'Duplicados', 'Solo duplicados');
    await page.waitForURL(/duplicates=only/);
    await expect.poll(async () => Number(await page.getByTestId('files-count').textContent())).toBe(flagged!.length);
    // The count and the page are two requests: the cards may land a moment after the heading.
    await expect.poll(() => page.locator('.file-card .file-name').allTextContents()).toEqual([`${marker} copia`]);
    await expectAccessible(page);
    await screenshot(page, 'files-duplicates-filter');
    await context.close();
  }, 60_000);
});
