import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { clientFor, progress, signedInAdmin } from './lib/harness.ts';
import { signInAsAdmin, withAppInChromium } from './lib/app-site.ts';
import { chromiumFloor } from './lib/chromium-floor.ts';
import { describeChunks } from './lib/patch-timeline.ts';
import { withStackProcess } from './lib/stack-process.ts';
import { startUploadClient } from './lib/upload-client.ts';
import { FILE_INPUT } from '../tests/helpers/upload.ts';

/**
 * The real client path of an upload: the app's upload screen in headless Chromium, where
 * @uppy/tus sends the file in 6 MiB chunks with a fresh token per request and the app records the file
 * afterwards, against tus-js-client in Node sending the same bytes to the same bucket as the same person.
 * Beside them, Chromium's own floor (lib/chromium-floor.ts: the same slices PUT by a bare page to a bare
 * server), which bounds what the upload screen can reach. The size is the product's limit
 * (10^9 bytes; 64 MiB with --quick); rounds alternate, medians compared; each round prints where a chunk's
 * time goes, seen from the gateway (lib/patch-timeline.ts).
 */

const ROUNDS = 3;
/** The app's chunk size (CHUNK_SIZE in src/lib/uploads/tus-options.ts, which needs Vite's env to load). */
const CHUNK_SIZE = 6 * 1024 * 1024;

/**
 * Resolves with the page's clock when the file's line first shows it uploaded, seen by a MutationObserver:
 * Playwright's own wait polls, and after its first tries only every 500 ms, which put up to half a second
 * of the benchmark's own into every round.
 */
const COMPLETED_AT = `new Promise((resolve) => {
  const observer = new MutationObserver(() => {
    if (document.querySelector('.upload-item.is-done')) {
      observer.disconnect();
      resolve(performance.now());
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})`;

/**
 * Waits until no file is being post-processed: the server job reads each new 10^9-byte object whole (its
 * checksum), and would otherwise run beside the next round's uploads, in the same process as the stack.
 */
async function settled(service: ReturnType<typeof clientFor>): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { count, error } = await service
      .from('files')
      .select('id', { count: 'exact', head: true })
      .eq('processing', true);
    if (error) throw error;
    if (count === 0) return performance.now() - started;
    if (performance.now() - started > 120_000) throw new Error('post-processing did not finish in 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

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

export async function run(): Promise<BenchRow[]> {
  const bytes = isQuick() ? 64 * 1024 * 1024 : 1_000_000_000;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'mediateca-bench-upload-'));
  try {
    return await withStackProcess(async (stack, stackProcess) => {
      progress('browser-upload', `writing ${(bytes / 1e6).toFixed(0)} MB of random bytes`);
      const file = await randomFile(scratch, bytes);
      const { token } = await signedInAdmin(stack);
      const service = clientFor(stack, stack.serviceRoleKey);
      const nodeClient = await startUploadClient();
      try {
        return await withAppInChromium(stack, async ({ url, browser }) => {
          const floor = await chromiumFloor(browser, file, bytes, CHUNK_SIZE, scratch);
          const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
          await signInAsAdmin(page, url);
          await page.locator('.file-card, .empty-state').first().waitFor({ timeout: 60_000 });
          const browserRates: number[] = [];
          const nodeRates: number[] = [];
          const floorRates: number[] = [];
          for (let round = 1; round <= ROUNDS; round++) {
            progress(
              'browser-upload',
              `round ${round}/${ROUNDS}: tus-js-client in Node, Chromium's floor, then the upload screen`,
            );
            await stackProcess.takePatches();
            const node = await nodeClient.upload({
              tus: {
                endpoint: `${stack.apiUrl}/storage/v1/upload/resumable`,
                headers: { authorization: `Bearer ${token}`, apikey: stack.anonKey, 'x-upsert': 'false' },
                file,
                size: bytes,
                chunkSize: CHUNK_SIZE,
                metadata: {
                  bucketName: 'media',
                  objectName: `${crypto.randomUUID()}/bench.bin`,
                  contentType: 'application/octet-stream',
                },
              },
            });
            nodeRates.push(bytes / 1e6 / (node.ms / 1000));
            progress('browser-upload', `  Node: ${describeChunks(await stackProcess.takePatches())}`);
            floorRates.push(await floor.run());
            await page.goto(`${url}/private/upload`);
            await page.getByText('Arrastrar archivos aquí o').waitFor();
            const completed = page.evaluate(COMPLETED_AT) as Promise<number>;
            const started = (await page.evaluate('performance.now()')) as number;
            await page.setInputFiles(FILE_INPUT, file);
            // The locator only bounds the wait; the time is the observer's.
            await page
              .locator('.upload-item.is-done')
              .first()
              .waitFor({ timeout: 15 * 60_000 });
            browserRates.push(bytes / 1e6 / (((await completed) - started) / 1000));
            progress('browser-upload', `  upload screen: ${describeChunks(await stackProcess.takePatches())}`);
            const waited = await settled(service);
            progress('browser-upload', `  its post-processing finished ${(waited / 1000).toFixed(1)} s later`);
            // The next round sends the same bytes: without this the screen would find a copy in the library
            // (hashing the file and asking before sending) and the round would measure that instead.
            const removed = await service.from('files').delete().eq('original_file_name', path.basename(file));
            if (removed.error) throw removed.error;
          }
          await floor.close();
          const rates = (values: number[]) => `${values.map((r) => r.toFixed(0)).join(', ')} MB/s`;
          progress(
            'browser-upload',
            `Node ${rates(nodeRates)}; Chromium's floor ${rates(floorRates)}; upload screen ${rates(browserRates)}`,
          );
          const label = `${(bytes / 1e6).toFixed(0)} MB`;
          return [
            {
              metric: `upload of ${label} through the upload screen (@uppy/tus in Chromium, median of ${ROUNDS})`,
              unit: 'MB/s',
              value: percentile(browserRates, 50),
              baseline: percentile(nodeRates, 50),
              baselineLabel: 'tus-js-client in Node',
              goal: '≥ 0.8× Node',
              higherIsBetter: true,
            },
            {
              metric: `Chromium's floor: ${label} in 6 MiB Blob slices PUT one after another by a bare page (median of ${ROUNDS})`,
              unit: 'MB/s',
              value: percentile(floorRates, 50),
              baseline: percentile(nodeRates, 50),
              baselineLabel: 'tus-js-client in Node',
              goal: '— (bounds the row above)',
              higherIsBetter: true,
            },
            {
              metric: `upload of ${label} through the upload screen against Chromium's floor (median of ${ROUNDS})`,
              unit: 'MB/s',
              value: percentile(browserRates, 50),
              baseline: percentile(floorRates, 50),
              baselineLabel: "Chromium's floor",
              goal: '≥ 0.9× floor',
              higherIsBetter: true,
            },
          ];
        });
      } finally {
        await nodeClient.close();
      }
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('browser-upload', await run());
}
