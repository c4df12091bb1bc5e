import { open, stat } from 'node:fs/promises';
import { predictLength } from 'client-zip';
import type { Request } from 'playwright-core';
import { isQuick, report, type BenchRow } from './lib/report.ts';
import { clientFor, progress, withStack } from './lib/harness.ts';
import { withAppInChromium } from './lib/app-site.ts';

/**
 * A public collection's 'Descargar todo (ZIP)' at 2 GiB and 5,000 files (200 MiB and 500 with --quick), in
 * headless Chromium against the built app: the page lists the entries a page at a time through the
 * collection-zip function and writes the archive itself from the originals' signed URLs. Checked: the saved
 * archive's size (client-zip's own prediction for those names and sizes), its entry count, and the bytes of
 * its first and last entries. Measured: every collection-zip request as the browser saw it (wall time,
 * answer size), and the CPU time, memory and wall time the functions runtime measured for each.
 * The originals are cheap to make: a 16-byte header naming the file, then repeated bytes, uploaded straight
 * to the stack's Storage.
 */

const FILES = isQuick() ? 500 : 5_000;
const TOTAL_BYTES = isQuick() ? 200 * 2 ** 20 : 2 ** 31;
const FILE_BYTES = Math.floor(TOTAL_BYTES / FILES);
const UPLOADS_AT_ONCE = 8;
const LIMITS = { cpuMs: 2_000, memoryMb: 256, wallMs: 150_000 };

const originalOf = (index: number) => {
  const bytes = Buffer.alloc(FILE_BYTES, index % 251);
  bytes.write(`file ${String(index).padStart(10, '0')}`, 'latin1');
  return bytes;
};
const nameOf = (index: number) => `original-${String(index).padStart(5, '0')}.bin`;

/** Reads a saved ZIP's central directory from the end of the file (never the whole archive in memory). */
async function centralDirectory(file: string) {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tail = Buffer.alloc(Math.min(size, 65_557));
    await handle.read(tail, 0, tail.length, size - tail.length);
    const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (end < 0) throw new Error('not a ZIP archive');
    const count = tail.readUInt16LE(end + 10);
    const directory = Buffer.alloc(tail.readUInt32LE(end + 12));
    await handle.read(directory, 0, directory.length, tail.readUInt32LE(end + 16));
    const entries: Array<{ name: string; size: number; offset: number }> = [];
    for (let offset = 0, i = 0; i < count; i += 1) {
      const nameLength = directory.readUInt16LE(offset + 28);
      entries.push({
        name: directory.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'),
        size: directory.readUInt32LE(offset + 24),
        offset: directory.readUInt32LE(offset + 42),
      });
      offset += 46 + nameLength + directory.readUInt16LE(offset + 30) + directory.readUInt16LE(offset + 32);
    }
    /** The stored bytes of an entry, read from its local header. */
    const bytesOf = async (entry: { size: number; offset: number }) => {
      const header = Buffer.alloc(30);
      await handle.read(header, 0, 30, entry.offset);
      const start = entry.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
      const data = Buffer.alloc(entry.size);
      await handle.read(data, 0, entry.size, start);
      return data;
    };
    return { size, entries, first: await bytesOf(entries[0]!), last: await bytesOf(entries.at(-1)!) };
  } finally {
    await handle.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  return withStack(async (stack) => {
    const service = clientFor(stack, stack.serviceRoleKey);
    const { data: collection, error } = await service
      .from('collections')
      .insert({ name: 'Benchmark ZIP', is_public: true })
      .select('id')
      .single();
    if (error) throw error;

    const ids = Array.from({ length: FILES }, () => crypto.randomUUID());
    let uploaded = 0;
    const upload = async (index: number) => {
      const response = await fetch(`${stack.apiUrl}/storage/v1/object/media/${ids[index]}/original.bin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.serviceRoleKey}`, 'content-type': 'application/octet-stream' },
        body: originalOf(index),
      });
      if (!response.ok) throw new Error(`upload ${index}: ${response.status} ${await response.text()}`);
      uploaded += 1;
      if (uploaded % 500 === 0) progress('collection-zip', `uploaded ${uploaded}/${FILES} originals`);
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: UPLOADS_AT_ONCE }, async () => {
        while (next < FILES) await upload(next++);
      }),
    );
    for (let from = 0; from < FILES; from += 1_000) {
      const rows = ids.slice(from, from + 1_000).map((id, i) => ({
        id,
        file_name: 'original.bin',
        object_path: `${id}/original.bin`,
        original_file_name: nameOf(from + i),
        name_es: `Original ${from + i}`,
        name_en: `Original ${from + i}`,
        size: FILE_BYTES,
        extension: 'bin',
        processing: false,
        published: true,
      }));
      const inserted = await service.from('files').insert(rows);
      if (inserted.error) throw inserted.error;
      const linked = await service
        .from('collection_files')
        .insert(rows.map((row) => ({ collection_id: collection.id, file_id: row.id })));
      if (linked.error) throw linked.error;
    }

    // Every request's CPU, memory and wall time as the functions runtime measured it (stack/README.md).
    const usageFrom = stack.functionUsage().length;
    const inBrowser = await withAppInChromium(stack, async ({ url, browser }) => {
      const context = await browser.newContext({ acceptDownloads: true, locale: 'es-ES' });
      try {
        const page = await context.newPage();
        const requests: Array<{ url: string; wallMs: number; bytes: number }> = [];
        const pending: Array<Promise<void>> = [];
        page.on('requestfinished', (request: Request) => {
          if (!request.url().includes('/functions/v1/collection-zip/')) return;
          pending.push(
            request.sizes().then((sizes) => {
              const timing = request.timing();
              requests.push({
                url: request.url(),
                wallMs: timing.responseEnd - timing.requestStart,
                bytes: sizes.responseBodySize,
              });
            }),
          );
        });
        await page.goto(`${url}/collection/${collection.id}`);
        const button = page.getByRole('button', { name: 'Descargar todo (ZIP)' });
        await button.waitFor({ timeout: 60_000 });
        progress('collection-zip', `downloading the ZIP of ${FILES} files, ${(TOTAL_BYTES / 2 ** 30).toFixed(2)} GiB`);
        const started = performance.now();
        const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
        // What the visitor sees while the archive is written (best effort: a fast download may finish first).
        const shot = page
          .locator('.public-zip-status', { hasText: 'Descargando el ZIP' })
          .waitFor({ timeout: 60_000 })
          .then(() => page.screenshot({ path: 'artifacts/screenshots/public-collection-zip-progress.png' }))
          .catch(() => undefined);
        const saved = (await download.path())!;
        const seconds = (performance.now() - started) / 1000;
        await page.getByText('ZIP descargado.').waitFor();
        await Promise.all([shot, ...pending]);
        const archive = await centralDirectory(saved);
        const savedBytes = (await stat(saved)).size;
        return { seconds, requests, archive, savedBytes, fileName: download.suggestedFilename() };
      } finally {
        await context.close();
      }
    });

    const { archive, requests } = inBrowser;
    const expectedSize = Number(
      predictLength(Array.from({ length: FILES }, (_, i) => ({ name: nameOf(i), size: FILE_BYTES }))),
    );
    const sortedIds = [...ids].sort();
    const names = new Set(archive.entries.map((entry) => entry.name));
    const problems = [
      archive.entries.length !== FILES && `${archive.entries.length} entries, not ${FILES}`,
      names.size !== FILES && `${names.size} distinct names`,
      archive.size !== expectedSize && `${archive.size} bytes, client-zip predicts ${expectedSize}`,
      archive.entries.some((entry) => entry.size !== FILE_BYTES) && 'an entry of the wrong size',
      !archive.first.equals(originalOf(ids.indexOf(sortedIds[0]!))) && 'the first entry differs from its original',
      !archive.last.equals(originalOf(ids.indexOf(sortedIds.at(-1)!))) && 'the last entry differs from its original',
      inBrowser.fileName !== 'Benchmark ZIP.zip' && `saved as ${inBrowser.fileName}`,
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`the saved archive is wrong: ${problems.join('; ')}`);
    progress(
      'collection-zip',
      `${(archive.size / 2 ** 20).toFixed(0)} MiB, ${archive.entries.length} entries in ${inBrowser.seconds.toFixed(1)} s; ${requests.length} function requests`,
    );

    const served = stack
      .functionUsage()
      .slice(usageFrom)
      .filter((entry) => entry.function === 'collection-zip');
    if (served.some((entry) => entry.limit !== null || entry.status >= 500)) {
      throw new Error(`a collection-zip request failed: ${JSON.stringify(served.find((entry) => entry.limit))}`);
    }

    const worst = (values: number[]) => Math.max(...values);
    const label = `${FILES.toLocaleString('en-GB')} files, ${(TOTAL_BYTES / 2 ** 30).toFixed(1)} GiB`;
    return (
      await report('collection-zip', [
        row(
          `'Descargar todo (ZIP)' of ${label}: archive saved (size and entries checked)`,
          's',
          inBrowser.seconds,
          'works; < 150 s is not needed (no function holds it)',
          null,
          '',
        ),
        row(
          'ZIP written by the browser: throughput',
          'MB/s',
          archive.size / 1e6 / inBrowser.seconds,
          'streams (no goal)',
          null,
          '',
          true,
        ),
        row(
          `collection-zip requests per download (${label})`,
          'requests',
          requests.length,
          `${Math.floor(FILES / 200) + 1} pages of ≤ 200 (the last one may be empty)`,
          null,
          '',
        ),
        row(
          'collection-zip: worst request wall time, in the browser',
          'ms',
          worst(requests.map((r) => r.wallMs)),
          `≤ 50 % of ${LIMITS.wallMs / 1000} s`,
          LIMITS.wallMs,
          'hosted wall clock',
        ),
        row(
          'collection-zip: worst request wall time, in the functions runtime',
          'ms',
          worst(served.map((r) => r.wallMs)),
          `≤ 50 % of ${LIMITS.wallMs / 1000} s`,
          LIMITS.wallMs,
          'hosted wall clock',
        ),
        row(
          'collection-zip: worst request CPU time, in the functions runtime',
          'ms',
          worst(served.map((r) => r.cpuMs)),
          `≤ 50 % of ${LIMITS.cpuMs / 1000} s`,
          LIMITS.cpuMs,
          'hosted CPU limit',
        ),
        row(
          'collection-zip: largest answer (one page of entries)',
          'KB',
          worst(requests.map((r) => r.bytes)) / 1000,
          'small (no goal)',
          null,
          '',
        ),
        row(
          'collection-zip: worst request memory above its worker at rest',
          'MB',
          worst(served.map((r) => r.peakMemoryMb)),
          `≤ 50 % of ${LIMITS.memoryMb} MB`,
          LIMITS.memoryMb,
          'hosted memory limit',
        ),
      ])
    ).rows;
  });
}

function row(
  metric: string,
  unit: string,
  value: number,
  goal: string,
  baseline: number | null,
  baselineLabel: string,
  higherIsBetter = false,
): BenchRow {
  return { metric, unit, value, baseline, baselineLabel, goal, higherIsBetter };
}
