import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import { appUrl, expectAccessible, launchBrowser, screenshot, signIn } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { chooseFilter, chooseTag, filterChip } from '../helpers/filters.ts';
import { insertFiles } from '../helpers/factories.ts';

/**
 * The files screen's tag, status and operations filters, its six sorts, and how a card opens.
 * Every expectation is computed from the database when the test runs (other e2e files add and delete
 * files on the same stack), through plain table reads rather than the search function the screen uses.
 */

let browser: Browser;
let context: BrowserContext;
let page: Page;
let service: SupabaseClient;

const count = async () => Number(await page.getByTestId('files-count').textContent());
const shownNames = () => page.locator('.file-card .file-name').allTextContents();

async function filesWhere(column: 'published' | 'operations', value: boolean): Promise<number> {
  const { count: total, error } = await service
    .from('files')
    .select('id', { count: 'exact', head: true })
    .eq(column, value);
  expect(error).toBeNull();
  return total!;
}

async function openFilesScreen(search = '') {
  await page.goto(appUrl(`/private/files${search}`));
  await page.getByTestId('files-count').filter({ hasText: /^\d+$/ }).waitFor();
}

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
  context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await page.goto(appUrl('/login'));
  await signIn(page, seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  await page.waitForURL('**/private/files');
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  await openFilesScreen();
});

describe('filters', () => {
  it("filters by tag, starting from 'Cualquier etiqueta', in the URL and after a reload", async () => {
    await filterChip(page, 'Etiqueta').click();
    const options = page.getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(1);
    expect(await options.first().textContent()).toMatch(/Cualquier etiqueta$/);
    await page.keyboard.press('Escape');

    // The tag with the most files, so that the filter visibly narrows the list.
    const { data: links, error } = await service.from('file_tags').select('tag_id, tags(name_es)');
    expect(error).toBeNull();
    const perTag = new Map<string, { name: string; files: number }>();
    for (const link of links as unknown as Array<{ tag_id: string; tags: { name_es: string } }>) {
      const entry = perTag.get(link.tag_id) ?? { name: link.tags.name_es, files: 0 };
      entry.files += 1;
      perTag.set(link.tag_id, entry);
    }
    const [tagId, tag] = [...perTag.entries()].sort((a, b) => b[1].files - a[1].files)[0]!;
    const all = await count();
    expect(tag.files).toBeLessThan(all);

    await chooseTag(page, tag.name);
    await page.waitForURL(new RegExp(`tag=${tagId}`));
    await expect.poll(count).toBe(tag.files);
    await expect.poll(async () => (await shownNames()).length).toBe(tag.files);
    await screenshot(page, 'files-by-tag');
    await page.reload();
    await expect.poll(count).toBe(tag.files);
    await filterChip(page, `Etiqueta: ${tag.name}`).waitFor();

    // What a tag's count link on the tags screen opens: the same view, from a fresh page.
    const linked = await context.newPage();
    try {
      await linked.goto(appUrl(`/private/files?tag=${tagId}`));
      await expect.poll(async () => Number(await linked.getByTestId('files-count').textContent())).toBe(tag.files);
    } finally {
      await linked.close();
    }
  });

  it('filters by status: Activos and No activos', async () => {
    await chooseFilter(page, 'Estado', 'Activos');
    await page.waitForURL(/status=published/);
    await expect.poll(count).toBe(await filesWhere('published', true));
    await chooseFilter(page, 'Estado', 'No activos');
    await page.waitForURL(/status=unpublished/);
    await expect.poll(count).toBe(await filesWhere('published', false));
    await expectAccessible(page);
    await screenshot(page, 'files-unpublished');
    // A set filter reads 'Estado: No activos' with an × that takes it away.
    await page.getByRole('button', { name: 'Quitar filtro Estado' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.has('status')).toBe(false);
  });

  it('filters by operations', async () => {
    const operations = await filesWhere('operations', true);
    expect(operations).toBeGreaterThan(0);
    await chooseFilter(page, 'Operaciones', 'Operaciones');
    await page.waitForURL(/operations=OPERATIONS/);
    await expect.poll(count).toBe(operations);
    await expect.poll(async () => (await shownNames()).length).toBe(operations);
  });

  it("clears a search, a tag and a status together with 'Quitar filtros'", async () => {
    const all = await count();
    await page.getByLabel('Buscar').fill('piscina');
    await page.waitForURL(/q=piscina/);
    await chooseFilter(page, 'Estado', 'Activos');
    await chooseTag(page, 'Piscina');
    await page.waitForURL(/tag=/);
    await expect.poll(count).toBeLessThan(all);

    await page.getByRole('button', { name: 'Quitar filtros' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(count).toBe(all);
    expect(await page.getByLabel('Buscar').inputValue()).toBe('');
    expect(await filterChip(page, 'Etiqueta').textContent()).toBe('Etiqueta▾');
    expect(await filterChip(page, 'Estado').textContent()).toBe('Estado▾');
    // 'Quitar filtros' shows only while something is set.
    expect(await page.getByRole('button', { name: 'Quitar filtros' }).count()).toBe(0);
  });
});

describe('sorts', () => {
  const columnSorts: Array<[string, string, 'uploaded_on' | 'size', boolean]> = [
    ['uploadedOn_desc', 'Más recientes primero', 'uploaded_on', false],
    ['uploadedOn_asc', 'Más antiguos primero', 'uploaded_on', true],
    ['size_desc', 'Más grandes primero', 'size', false],
    ['size_asc', 'Más pequeños primero', 'size', true],
  ];

  it.each(columnSorts)('sorts by %s (%s)', async (sort, label, column, ascending) => {
    const { data, error } = await service
      .from('files')
      .select('name_es')
      .order(column, { ascending })
      .order('id', { ascending })
      .limit(6);
    expect(error).toBeNull();
    const expected = data!.map((row) => row.name_es as string);
    await chooseFilter(page, 'Orden', label);
    if (sort !== 'uploadedOn_desc') await page.waitForURL(new RegExp(`sort=${sort}`));
    await expect.poll(async () => (await shownNames()).slice(0, expected.length)).toEqual(expected);
  });

  it.each([
    ['nameEs_asc', 'Nombre (A-Z)', 1],
    ['nameEs_desc', 'Nombre (Z-A)', -1],
  ] as const)('sorts by %s (%s), ignoring accents and case', async (sort, label, direction) => {
    // Accent- and case-blind order, as staff read names; ties fall back to the id like the database's.
    const { data, error } = await service.from('files').select('id, name_es');
    expect(error).toBeNull();
    const plain = (text: string) =>
      text
        .normalize('NFD')
        .replace(/\p{Diacritic}/gu, '')
        .toLowerCase();
    const rows = data as Array<{ id: string; name_es: string }>;
    const key = (row: { id: string; name_es: string }) => plain(row.name_es);
    const sorted = [...rows].sort(
      (a, b) => direction * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : 1),
    );
    const expected = sorted.slice(0, 6).map((row) => row.name_es);

    await chooseFilter(page, 'Orden', label);
    await page.waitForURL(new RegExp(`sort=${sort}`));
    await expect.poll(async () => (await shownNames()).slice(0, expected.length)).toEqual(expected);
  });
});

describe('opening a file', () => {
  /**
   * A card of its own, found by a unique search, whose box has stopped moving (the count, the first page and
   * the row measurements arrive separately): a click never lands on a card that is being laid out again.
   */
  async function steadyCard() {
    const marker = `abrir${crypto.randomUUID().slice(0, 6)}`;
    const [id] = await insertFiles(marker, 1);
    await openFilesScreen(`?q=${marker}`);
    await expect.poll(count, { timeout: 15_000 }).toBe(1);
    const card = page.locator('.file-card-link');
    await expect.poll(() => card.count()).toBe(1);
    let previous = '';
    await expect
      .poll(async () => {
        const box = JSON.stringify(await card.boundingBox());
        const steady = box === previous;
        previous = box;
        return steady;
      })
      .toBe(true);
    return { card, href: `/private/file/${id}` };
  }

  /** On failure: what the browser did (pages, navigations, this page's address) and a screenshot of it. */
  async function recorded<T>(name: string, steps: (log: string[]) => Promise<T>): Promise<T> {
    const log: string[] = [];
    const onRequest = (request: { isNavigationRequest(): boolean; url(): string }) => {
      if (request.isNavigationRequest()) log.push(`navigation ${request.url()}`);
    };
    const onPage = (opened: Page) => log.push(`new page ${opened.url()}`);
    context.on('request', onRequest);
    context.on('page', onPage);
    try {
      return await steps(log);
    } catch (error) {
      log.push(`this page at ${page.url()}, ${context.pages().length} page(s) open`);
      await screenshot(page, `failure-${name}`);
      console.log(`[${name}] ${log.join('\n')}`);
      throw error;
    } finally {
      context.off('request', onRequest);
      context.off('page', onPage);
    }
  }

  /**
   * Whether a document request was made outside this page. A background tab's first request can come before
   * Playwright knows its frame (`frame()` then throws): that tab is not this page either.
   */
  const outsideThisPage = (request: Request) => {
    if (!request.isNavigationRequest()) return false;
    try {
      return request.frame().page() !== page;
    } catch {
      return true;
    }
  };

  /** The document request for `href` made by another tab than this page. */
  const openedElsewhere = (href: string) =>
    context.waitForEvent('request', {
      predicate: (candidate) => outsideThisPage(candidate) && candidate.url().endsWith(href),
      timeout: 15_000,
    });

  const closeOtherPages = async () => {
    for (const other of context.pages()) if (other !== page) await other.close();
  };

  it('opens a card in place with a click, and in a new window with ctrl-click', async () => {
    const { card, href } = await steadyCard();
    expect(await card.getAttribute('href')).toBe(href);

    // A ctrl-click opens the file in a background tab. The headless shell starts that tab's document request
    // but does not always hand the tab to Playwright as a page ('page' never came in 2 of 19 runs, each with
    // the request made), so the new window is proven by the document request for the file's address made
    // outside this page, while this page stays where it was (a click handled in place would have changed its
    // address first).
    await recorded('ctrl-click', async () => {
      const [request] = await Promise.all([openedElsewhere(href), card.click({ modifiers: ['Control'] })]);
      expect(new URL(request.url()).pathname).toBe(href);
      expect(new URL(page.url()).pathname).toBe('/private/files');
      await closeOtherPages();
    });

    // While something is selected, ctrl-click still opens a new window and keeps the selection.
    await recorded('ctrl-click-selecting', async () => {
      await page.locator('.file-card .file-select').click();
      const bar = page.getByRole('region', { name: 'Archivos seleccionados' });
      await bar.getByText('1 seleccionado', { exact: true }).waitFor();
      await Promise.all([openedElsewhere(href), card.click({ modifiers: ['Control'] })]);
      await closeOtherPages();
      expect(new URL(page.url()).pathname).toBe('/private/files');
      expect(await bar.getByText('1 seleccionado', { exact: true }).count()).toBe(1);
      await page.keyboard.press('Escape');
      await expect.poll(() => bar.count()).toBe(0);
    });

    await recorded('click', async () => {
      const elsewhere: string[] = [];
      const onRequest = (request: Request) => {
        if (outsideThisPage(request)) elsewhere.push(request.url());
      };
      context.on('request', onRequest);
      await card.click();
      await page.waitForURL(`**${href}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      context.off('request', onRequest);
      expect(elsewhere).toEqual([]);
    });
  });
});

describe("an uploader's files screen", () => {
  it('lists only their own files and offers no admin controls', async () => {
    const uploaderContext = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
    const uploaderPage = await uploaderContext.newPage();
    try {
      await uploaderPage.goto(appUrl('/login'));
      await signIn(uploaderPage, seedAccounts.UPLOADER.email, seedAccounts.UPLOADER.password);
      await uploaderPage.waitForURL('**/private/files');
      const { data: staff } = await service.from('staff').select('user_id').eq('email', seedAccounts.UPLOADER.email);
      const { count: own, error } = await service
        .from('files')
        .select('id', { count: 'exact', head: true })
        .eq('uploader_id', staff![0]!.user_id);
      expect(error).toBeNull();
      const { count: everyone } = await service.from('files').select('id', { count: 'exact', head: true });
      expect(own).toBeLessThan(everyone!);
      await expect.poll(async () => Number(await uploaderPage.getByTestId('files-count').textContent())).toBe(own);

      expect(await uploaderPage.getByRole('button', { name: /^Información de / }).count()).toBe(0);
      await uploaderPage.locator('.file-card input[type="checkbox"]').first().click();
      const bar = uploaderPage.getByRole('region', { name: 'Archivos seleccionados' });
      await bar.getByText('1 seleccionado', { exact: true }).waitFor();
      expect(await bar.getByRole('button', { name: /^Editar tags 1 archivo\(s\)$/ }).count()).toBe(1);
      for (const adminOnly of ['Activar', 'Desactivar', 'Borrar']) {
        expect(await bar.getByRole('button', { name: adminOnly, exact: true }).count()).toBe(0);
      }
      expect(await bar.getByRole('button', { name: 'Añadir a colección...' }).count()).toBe(0);
      await expectAccessible(uploaderPage);
      await screenshot(uploaderPage, 'files-uploader-selection');
    } finally {
      await uploaderContext.close();
    }
  });
});
