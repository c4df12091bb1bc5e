import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import * as tus from 'tus-js-client';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress, signedInAdmin, withStack } from './lib/harness.ts';
import { signInAsAdmin, withAppInChromium } from './lib/app-site.ts';
import { FILE_INPUT } from '../tests/helpers/upload.ts';

/**
 * The real client path of an upload (issue 22): the app's upload screen in headless Chromium, where
 * @uppy/tus sends the file in 6 MiB chunks with a fresh token per request and the app records the file
 * afterwards, against tus-js-client in Node sending the same bytes to the same bucket as the same person.
 * The size is the product's limit (10^9 bytes; 64 MiB with --quick); rounds alternate, medians compared.
 */

const ROUNDS = 2;
/** The app's chunk size (CHUNK_SIZE in src/lib/uploads/tus-options.ts, which needs Vite's env to load). */
const CHUNK_SIZE = 6 * 1024 * 1024;

async function randomFile(dir: string, bytes: number): Promise<string> {
  const file = path.join(dir, 'upload.bin');
  const handle = await open(file, 'w');
  const block = randomBytes(8 * 1024 * 1024);
  for (let written = 0; written < bytes; written += block.length) {
    await handle.write(block, 0, Math.min(block.length, bytes - written));
  }
  await handle.close();
  return file;
}

function nodeUpload(apiUrl: string, anonKey: string, token: string, file: string, size: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    new tus.Upload(createReadStream(file), {
      endpoint: `${apiUrl}/storage/v1/upload/resumable`,
      headers: { authorization: `Bearer ${token}`, apikey: anonKey, 'x-upsert': 'false' },
      uploadSize: size,
      chunkSize: CHUNK_SIZE,
      retryDelays: [],
      metadata: {
        bucketName: 'media',
        objectName: `${crypto.randomUUID()}/bench.bin`,
        contentType: 'application/octet-stream',
      },
      onError: reject,
      onSuccess: () => resolve(size / 1e6 / ((performance.now() - started) / 1000)),
    }).start();
  });
}

export async function run(): Promise<BenchRow[]> {
  const bytes = isQuick() ? 64 * 1024 * 1024 : 1_000_000_000;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'mediateca-bench-upload-'));
  try {
    return await withStack(async (stack) => {
      progress('browser-upload', `writing ${(bytes / 1e6).toFixed(0)} MB of random bytes`);
      const file = await randomFile(scratch, bytes);
      const { token } = await signedInAdmin(stack);
      return await withAppInChromium(stack, async ({ url, browser }) => {
        const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
        await signInAsAdmin(page, url);
        await page.locator('.file-card, .empty-state').first().waitFor({ timeout: 60_000 });
        const browserRates: number[] = [];
        const nodeRates: number[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          progress('browser-upload', `round ${round}/${ROUNDS}: tus-js-client in Node, then the upload screen`);
          nodeRates.push(await nodeUpload(stack.apiUrl, stack.anonKey, token, file, bytes));
          await page.goto(`${url}/private/upload`);
          await page.getByText('Arrastrar archivos aquí o').waitFor();
          const started = performance.now();
          await page.setInputFiles(FILE_INPUT, file);
          await page
            .locator('.uppy-StatusBar')
            .getByText('Completado')
            .first()
            .waitFor({ timeout: 15 * 60_000 });
          browserRates.push(bytes / 1e6 / ((performance.now() - started) / 1000));
        }
        progress(
          'browser-upload',
          `Node ${nodeRates.map((r) => r.toFixed(0)).join(', ')} MB/s; browser ${browserRates.map((r) => r.toFixed(0)).join(', ')} MB/s`,
        );
        return [
          {
            metric: `upload of ${(bytes / 1e6).toFixed(0)} MB through the upload screen (@uppy/tus in Chromium, median of ${ROUNDS})`,
            unit: 'MB/s',
            value: percentile(browserRates, 50),
            baseline: percentile(nodeRates, 50),
            baselineLabel: 'tus-js-client in Node',
            goal: '≥ 0.8× Node',
            higherIsBetter: true,
          },
        ];
      });
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('browser-upload', await run());
}
