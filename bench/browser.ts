import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { isQuick, libraryFiles, percentile, report, sizeLabel, type BenchRow } from './lib/report.ts';
import { progress, signedInAdmin } from './lib/harness.ts';
import { withStackProcess } from './lib/stack-process.ts';
import { signInAsAdmin, withAppInChromium } from './lib/app-site.ts';
import { generateDataset } from '../scripts/generate-dataset.ts';

/**
 * The files screen in headless Chromium against the built app: sign-in → first grid paint, a search
 * keystroke → results painted, a filter change → results painted, 'Seleccionar todos' → bar shown, and
 * frames dropped while scrolling through 10,000 files (2,000 with --quick), at 10k and 100k files (1k
 * and 10k with --quick); sign-in and 'Seleccionar todos' are medians of five. The baseline of each
 * figure is the same figure at the smaller size, so the ratio shows how it grows with the library.
 */

/** How far the scrolling measure goes (10,000 rows of the list), and how fast: a quick fling. */
const SCROLL_FILES = isQuick() ? 2_000 : 10_000;
const SCROLL_STEP_PX = 120;

/** The number of files count_files reports for some filters, as the signed-in admin sees them. */
type ExpectedTotal = (filter: Record<string, unknown>) => Promise<number>;

/**
 * Resolves once the files screen shows the results of `query`: the URL carries the search (it changes in
 * the same render as the list's query key, when the count turns to '…') and the heading shows the
 * number the database gives for it. Checking both means neither a placeholder nor the previous list's
 * count, even if equal, can end the wait early.
 */
async function resultsPainted(page: Page, query: string | null, expected: number) {
  await page.waitForFunction(
    ([q, total]) =>
      new URLSearchParams(location.search).get('q') === q &&
      document.querySelector('[data-testid="files-count"]')?.textContent === total,
    [query, String(expected)] as const,
  );
}

/**
 * Scrolls the grid through `files` files (or all there are) at `step` px per frame, loading more pages
 * on the way as a person scrolling would. Only frames spent scrolling count: while the next page is
 * being fetched the list has nothing to scroll into and the wait is not rendering work. A frame longer
 * than 25 ms (1.5 × 16.7 ms) counts as dropped. A string, not a function: the TypeScript runner would
 * inject helpers the page does not have.
 */
const scrollThroughFiles = (files: number, step: number) => `(async () => {
  // The furthest card the grid has rendered (cards carry their index in the loaded list).
  const furthest = () =>
    Math.max(-1, ...[...document.querySelectorAll('[data-index]')].map((card) => Number(card.dataset.index)));
  let frames = 0;
  let long = 0;
  let waitingSince = null;
  let last = performance.now();
  const started = last;
  // A page that stops scrolling short of its end (something holding the scroll) ends the measure instead of
  // looping for ever; the frames it counted are reported as they are.
  let stuckFrames = 0;
  let lastY = -1;
  while (furthest() < ${files} - 1) {
    const now = await new Promise((resolve) => requestAnimationFrame(resolve));
    const atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
    stuckFrames = !atEnd && window.scrollY === lastY ? stuckFrames + 1 : 0;
    lastY = window.scrollY;
    if (stuckFrames > 300) break;
    if (atEnd) {
      waitingSince ??= now;
      if (now - waitingSince > 15000) break; // nothing more to load: fewer files than asked for
    } else {
      if (waitingSince === null) {
        frames++;
        if (now - last > 25) long++;
      }
      waitingSince = null;
      window.scrollBy(0, ${step});
    }
    last = now;
  }
  return { frames, long, files: furthest() + 1, seconds: (performance.now() - started) / 1000, stuck: stuckFrames > 300 };
})()`;

/**
 * Where the page is 3 s after the person stops scrolling, relative to where they stopped (0: it stayed).
 * The files page once jumped back to the top every 0.8 s while every other measure here stayed green.
 */
const scrollDriftAfterStop = `(async () => {
  const stoppedAt = window.scrollY;
  await new Promise((resolve) => setTimeout(resolve, 3000));
  return Math.abs(window.scrollY - stoppedAt);
})()`;

/** Sign-ins measured per size, each in a fresh browser context (no cache, no session): one was too noisy. */
const SIGN_INS = 5;
const SELECT_ALLS = 5;

/** From the login page's load to the first card of the grid, in a fresh context each time. */
async function firstPaints(browser: Browser, appUrl: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SIGN_INS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const started = performance.now();
    await signInAsAdmin(page, appUrl);
    await page.locator('.file-card').first().waitFor({ timeout: 60_000 });
    times.push(performance.now() - started);
    await context.close();
  }
  return times;
}

async function measure(page: Page, appUrl: string, runs: number, expectedTotal: ExpectedTotal, scrollFiles: number) {
  await signInAsAdmin(page, appUrl);
  await page.locator('.file-card').first().waitFor({ timeout: 60_000 });
  // The heading's total is a request of its own beside the first page: at 1M files it can still read '…'
  // when the first card is painted, so wait for the number the database gives instead of reading it once.
  const total = await expectedTotal({});
  await page.waitForFunction(
    (expected) => document.querySelector('[data-testid="files-count"]')?.textContent === expected,
    String(total),
  );

  const keystroke: number[] = [];
  const filter: number[] = [];
  for (let i = 0; i < runs; i++) {
    const word = ['piscina', 'verano', 'terraza', 'jardín'][i % 4]!;
    const type = i % 2 === 0 ? 'image' : 'not-image';
    const [wordTotal, typedTotal] = await Promise.all([
      expectedTotal({ query: word }),
      expectedTotal({ query: word, type }),
    ]);
    const box = page.getByLabel('Buscar');
    await box.fill(word.slice(0, -1));
    await page.waitForTimeout(100);
    const started = performance.now();
    await box.press(word.slice(-1));
    // Everything after the key, the app's 750 ms debounce included, until the new results are painted.
    await resultsPainted(page, word, wordTotal);
    keystroke.push(performance.now() - started);

    // The Tipo chip's menu is opened first: the measure is the choice → results painted, as selectOption was.
    await page
      .getByRole('search', { name: 'Filtros' })
      .getByRole('button', { name: /^Tipo\b/ })
      .click();
    const choice = page.getByRole('menuitemradio', { name: type === 'image' ? 'Imágenes' : 'Documentos', exact: true });
    await choice.waitFor();
    const filterStarted = performance.now();
    await choice.click();
    await page.waitForFunction(
      ([wanted, expected]) =>
        new URLSearchParams(location.search).get('type') === wanted &&
        document.querySelector('[data-testid="files-count"]')?.textContent === expected,
      [type, String(typedTotal)] as const,
    );
    filter.push(performance.now() - filterStarted);
    await page.getByRole('button', { name: 'Quitar filtros' }).click();
    await resultsPainted(page, null, total);
  }

  progress('browser', `${runs} keystrokes and filter changes measured; selecting all`);
  const selectAll: number[] = [];
  for (let i = 0; i < SELECT_ALLS; i++) {
    const selectStarted = performance.now();
    await page.getByRole('button', { name: `Seleccionar todos (${total})` }).click();
    await page.getByText(`${total.toLocaleString('es-ES')} seleccionados`).waitFor();
    selectAll.push(performance.now() - selectStarted);
    await page.getByRole('button', { name: 'Deseleccionar', exact: true }).click();
    await page.getByText(`${total.toLocaleString('es-ES')} seleccionados`).waitFor({ state: 'detached' });
  }

  progress('browser', 'scrolling');
  const scroll = (await page.evaluate(scrollThroughFiles(scrollFiles, SCROLL_STEP_PX))) as {
    frames: number;
    long: number;
    files: number;
    seconds: number;
    stuck: boolean;
  };
  progress(
    'browser',
    `scrolled ${scroll.files} files in ${scroll.seconds.toFixed(1)} s: ${scroll.long} of ${scroll.frames} frames over 25 ms${scroll.stuck ? ' (the page stopped scrolling short of its end)' : ''}`,
  );
  const drift = (await page.evaluate(scrollDriftAfterStop)) as number;
  return { keystroke, filter, selectAll, scroll, drift, total };
}

async function runAt(files: number, runs: number, scrollFiles: number) {
  return withStackProcess(async (stack) => {
    progress('browser', `generating ${files} files`);
    await generateDataset(stack.adminDbUrl, { files });
    return withAppInChromium(stack, async ({ url, browser }) => {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      const { client } = await signedInAdmin(stack);
      const expectedTotal: ExpectedTotal = async (filter) => {
        const { data, error } = await client.rpc('count_files', { p_filter: filter });
        if (error) throw error;
        return data as number;
      };
      progress('browser', `measuring at ${files} files: ${SIGN_INS} sign-ins`);
      const firstPaint = await firstPaints(browser, url);
      progress('browser', `sign-in → first grid paint: ${firstPaint.map((ms) => Math.round(ms)).join(', ')} ms`);
      return { firstPaint, ...(await measure(page, url, runs, expectedTotal, scrollFiles)) };
    });
  });
}

const onTime = (scroll: { frames: number; long: number }) =>
  (100 * (scroll.frames - scroll.long)) / Math.max(1, scroll.frames);

export async function run(): Promise<BenchRow[]> {
  // The growth from a tenth of the library to all of it (100k by default; `--files 1000000` for 1M).
  const large = libraryFiles();
  const small = large / 10;
  const runs = isQuick() ? 4 : 12;
  // The same distance at both sizes, so the ratio shows what the size of the library changes.
  const scrollFiles = Math.min(small, SCROLL_FILES);
  const base = await runAt(small, runs, scrollFiles);
  const big = await runAt(large, runs, scrollFiles);
  const label = sizeLabel;
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
    row(
      `sign-in → first grid paint, median of ${SIGN_INS}`,
      percentile(big.firstPaint, 50),
      percentile(base.firstPaint, 50),
      '≤ 1.0 s; ≤ 2× the smaller library',
    ),
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
      '≤ 900 ms; ≤ 1.05× the smaller library',
    ),
    row('filter change → results painted p95', percentile(big.filter, 95), percentile(base.filter, 95), '≤ 200 ms'),
    row(
      `'Seleccionar todos' → bar shown, median of ${SELECT_ALLS}`,
      percentile(big.selectAll, 50),
      percentile(base.selectAll, 50),
      '< 300 ms',
    ),
    {
      // Frames on time rather than frames dropped: none dropped at both sizes would make a 0/0 ratio.
      ...row(
        `frames on time (≤ 25 ms) while scrolling through ${scrollFiles.toLocaleString('en')} files`,
        onTime(big.scroll),
        onTime(base.scroll),
        '≥ 95%',
        '%',
      ),
      higherIsBetter: true,
    },
    {
      // 1 when the page is exactly where the person stopped, 3 s later; 0 when it moved (a yes/no, as a ratio).
      ...row(
        `scroll position held 3 s after stopping ${scrollFiles.toLocaleString('en')} files down (1 = yes)`,
        big.drift < 1 ? 1 : 0,
        base.drift < 1 ? 1 : 0,
        '1',
        'yes',
      ),
      higherIsBetter: true,
    },
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('browser', await run());
}
