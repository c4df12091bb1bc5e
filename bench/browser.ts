import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Page } from 'playwright-core';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress, withStack } from './lib/harness.ts';
import { generateDataset } from '../scripts/generate-dataset.ts';

/**
 * The files screen in headless Chromium against the built app: sign-in → first grid paint, a search
 * keystroke → results painted, a filter change → results painted, 'Seleccionar todos' → bar shown, and
 * frames dropped while scrolling, at 10k and 100k files (1k and 10k with --quick). The baseline of each
 * figure is the same figure at the smaller size, so the ratio shows how it grows with the library.
 */

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function serve(outDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    let file = path.join(outDir, path.normalize(new URL(req.url ?? '/', 'http://x').pathname));
    if (!(await stat(file).catch(() => null))?.isFile()) file = path.join(outDir, 'index.html');
    res.writeHead(200, {
      'Content-Type': file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html',
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const count = async (page: Page) => Number(await page.getByTestId('files-count').textContent());

async function measure(page: Page, appUrl: string, runs: number) {
  await page.goto(`${appUrl}/login`);
  await page.getByLabel('Correo electrónico').fill('admin@mediateca.local');
  await page.getByLabel('Contraseña').fill('mediateca-admin');
  const signInStarted = performance.now();
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.locator('.file-card').first().waitFor({ timeout: 60_000 });
  const firstPaint = performance.now() - signInStarted;
  const total = await count(page);

  const keystroke: number[] = [];
  const filter: number[] = [];
  for (let i = 0; i < runs; i++) {
    const word = ['piscina', 'verano', 'terraza', 'jardín'][i % 4]!;
    const box = page.getByLabel('Buscar');
    await box.fill(word.slice(0, -1));
    await page.waitForTimeout(100);
    const before = await page.getByTestId('files-count').textContent();
    const started = performance.now();
    await box.press(word.slice(-1));
    // Everything after the key, the app's 750 ms debounce included, until the new count is painted.
    await page.waitForFunction(
      (previous) => document.querySelector('[data-testid="files-count"]')?.textContent !== previous,
      before,
    );
    keystroke.push(performance.now() - started);
    const filterStarted = performance.now();
    const beforeFilter = await page.getByTestId('files-count').textContent();
    await page.getByLabel('Tipo').selectOption(i % 2 === 0 ? 'image' : 'not-image');
    await page.waitForFunction(
      (previous) => document.querySelector('[data-testid="files-count"]')?.textContent !== previous,
      beforeFilter,
    );
    filter.push(performance.now() - filterStarted);
    await page.getByRole('button', { name: 'Quitar filtros' }).click();
    await page.waitForFunction(
      (expected) => document.querySelector('[data-testid="files-count"]')?.textContent === expected,
      String(total),
    );
  }

  const selectStarted = performance.now();
  await page.getByRole('button', { name: `Seleccionar todos (${total})` }).click();
  await page.getByText(`${total} seleccionados`).waitFor();
  const selectAll = performance.now() - selectStarted;
  await page.getByRole('button', { name: 'Deseleccionar' }).click();

  // Frames while scrolling through loaded rows (paging loads more as the end nears): long frames count
  // as dropped (> 1.5 × 16.7 ms).
  // A string, not a function: the TypeScript runner would inject helpers the page does not have.
  const dropped = (await page.evaluate(`(async () => {
    let last = performance.now();
    let long = 0;
    let frames = 0;
    let running = true;
    const tick = (now) => {
      if (now - last > 25) long++;
      frames++;
      last = now;
      if (running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    for (let i = 0; i < 200; i++) {
      window.scrollBy(0, 600);
      await new Promise((r) => requestAnimationFrame(r));
    }
    running = false;
    return { long, frames };
  })()`)) as { long: number; frames: number };
  return { firstPaint, keystroke, filter, selectAll, dropped, total };
}

async function runAt(files: number, runs: number) {
  return withStack(async (stack) => {
    progress('browser', `generating ${files} files`);
    await generateDataset(stack.adminDbUrl, { files });
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-bench-app-'));
    process.env.VITE_SUPABASE_URL = stack.apiUrl;
    process.env.VITE_SUPABASE_ANON_KEY = stack.anonKey;
    await build({ root: projectRoot, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    const site = await serve(outDir);
    const browser = await playwright.launch({
      executablePath: await chromium.executablePath(),
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      progress('browser', `measuring at ${files} files`);
      return await measure(page, site.url, runs);
    } finally {
      await browser.close();
      await site.close();
      await rm(outDir, { recursive: true, force: true });
    }
  });
}

export async function run(): Promise<BenchRow[]> {
  const [small, large] = isQuick() ? [1_000, 10_000] : [10_000, 100_000];
  const runs = isQuick() ? 4 : 12;
  const base = await runAt(small, runs);
  const big = await runAt(large, runs);
  const label = (n: number) => `${n / 1000}k`;
  const row = (metric: string, value: number, baseline: number, goal: string, unit = 'ms'): BenchRow => ({
    metric: `${metric} at ${label(large)}`,
    unit,
    value,
    baseline,
    baselineLabel: `same at ${label(small)}`,
    goal,
    higherIsBetter: false,
  });
  return [
    row('sign-in → first grid paint', big.firstPaint, base.firstPaint, '< 2.5 s; ≤ 2× the smaller library'),
    row(
      'search keystroke → results painted p50 (750 ms debounce included)',
      percentile(big.keystroke, 50),
      percentile(base.keystroke, 50),
      '< 1.1 s',
    ),
    row(
      'search keystroke → results painted p95 (750 ms debounce included)',
      percentile(big.keystroke, 95),
      percentile(base.keystroke, 95),
      '< 1.2 s',
    ),
    row('filter change → results painted p95', percentile(big.filter, 95), percentile(base.filter, 95), '< 400 ms'),
    row("'Seleccionar todos' → bar shown", big.selectAll, base.selectAll, '< 300 ms'),
    row(
      'frames over 25 ms while scrolling 200 × 600 px',
      (100 * big.dropped.long) / Math.max(1, big.dropped.frames),
      (100 * base.dropped.long) / Math.max(1, base.dropped.frames),
      '≤ 5%',
      '%',
    ),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('browser', await run());
}
