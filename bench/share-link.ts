import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { clientFor, progress, signedInAdmin } from './lib/harness.ts';
import { withStackProcess } from './lib/stack-process.ts';
import { withAppInChromium } from './lib/app-site.ts';
import { seedAccounts } from '../tests/helpers/seed.ts';

/**
 * Opening a shared link ({site}/s/{token}) of 500 files in a fresh browser, until the whole grid is painted,
 * against the baseline of the public collection page of the same 500 files (/collection/{id}), measured in
 * the same run on the same stack. Both pages are open without signing in and draw 400×300 renders through an
 * edge function; the link's page also asks open_share_link (which counts the view). Goal: ≤ 1.2× the
 * public collection page.
 */

const FILES = 500;

async function firstGridPaint(browser: Browser, url: string, card: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  try {
    const started = performance.now();
    await page.goto(url);
    await page.waitForFunction(
      ([selector, count]) => document.querySelectorAll(selector).length === count,
      [card, FILES] as const,
      { timeout: 60_000 },
    );
    return performance.now() - started;
  } finally {
    await context.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  const runs = isQuick() ? 3 : 9;
  return withStackProcess(async (stack) => {
    const service = clientFor(stack, stack.serviceRoleKey);
    progress('share-link', `adding ${FILES} published pictures`);
    const bytes = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#4a90c0' } })
      .jpeg()
      .toBuffer();
    const ids: string[] = [];
    for (let i = 0; i < FILES; i++) {
      const id = crypto.randomUUID();
      const upload = await service.storage.from('media').upload(`${id}/foto.jpg`, bytes, { contentType: 'image/jpeg' });
      if (upload.error) throw upload.error;
      ids.push(id);
    }
    const rows = ids.map((id, i) => ({
      id,
      file_name: 'foto.jpg',
      object_path: `${id}/foto.jpg`,
      original_file_name: `foto-${i}.jpg`,
      name_es: `Foto de prueba ${i}`,
      name_en: `Test picture ${i}`,
      size: bytes.length,
      extension: 'jpg',
      width: 320,
      height: 240,
      processing: false,
      published: true,
      uploader_id: seedAccounts.ADMIN.id,
    }));
    const inserted = await service.from('files').insert(rows);
    if (inserted.error) throw inserted.error;
    const { data: collection, error } = await service
      .from('collections')
      .insert({ name: 'Benchmark enlaces', is_public: true })
      .select('id')
      .single();
    if (error) throw error;
    const links = await service
      .from('collection_files')
      .insert(ids.map((fileId) => ({ collection_id: collection.id, file_id: fileId })));
    if (links.error) throw links.error;
    const { client: admin } = await signedInAdmin(stack);
    const created = await admin.rpc('create_share_link', { p_name: 'Benchmark', p_expires_at: null, p_file_ids: ids });
    if (created.error) throw created.error;
    const { token } = created.data as { token: string };

    return withAppInChromium(stack, async ({ url, browser }) => {
      const linkTimes: number[] = [];
      const collectionTimes: number[] = [];
      // One untimed visit of each warms the build's chunks in the server and the stack's caches alike.
      await firstGridPaint(browser, `${url}/s/${token}`, '.share-card');
      await firstGridPaint(browser, `${url}/collection/${collection.id}`, '.public-card');
      for (let i = 0; i < runs; i++) {
        // Alternated, so a slow moment of the machine falls on both.
        linkTimes.push(await firstGridPaint(browser, `${url}/s/${token}`, '.share-card'));
        collectionTimes.push(await firstGridPaint(browser, `${url}/collection/${collection.id}`, '.public-card'));
        progress(
          'share-link',
          `run ${i + 1}/${runs}: link ${linkTimes.at(-1)!.toFixed(0)} ms, collection ${collectionTimes.at(-1)!.toFixed(0)} ms`,
        );
      }
      return [
        {
          metric: `open a shared link of ${FILES} files → grid painted (median)`,
          unit: 'ms',
          value: Math.round(percentile(linkTimes, 50)),
          baseline: Math.round(percentile(collectionTimes, 50)),
          baselineLabel: `public collection page of the same ${FILES} files`,
          goal: '≤ 1.2× the public collection page',
          higherIsBetter: false,
        },
      ];
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report(path.basename(fileURLToPath(import.meta.url), '.ts'), await run());
}
