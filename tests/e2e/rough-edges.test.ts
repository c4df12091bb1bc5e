import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedCollections, seedFiles } from '../helpers/seed.ts';

/**
 * Small things a new user saw as unfinished: form controls drawn like the switches, one wording for a file's
 * state, Spanish words with their accents, the users list and the file detail on a phone, and a replacement
 * of another kind asked about before it happens.
 */
let browser: Browser;
let desktop: Page;
let phone: Page;

/** The colour a CSS expression computes to on this page (e.g. the brand's dark blue of the switches). */
const computedColour = (page: Page, value: string) =>
  page.evaluate((background) => {
    const probe = document.createElement('div');
    probe.style.background = background;
    document.body.append(probe);
    const colour = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return colour;
  }, value);

const controlStyle = (locator: Locator) =>
  locator.evaluate((element) => {
    const style = getComputedStyle(element);
    return { appearance: style.appearance, border: style.borderTopColor, background: style.backgroundColor };
  });

beforeAll(async () => {
  browser = await launchBrowser();
  ({ page: desktop } = await signedInAs(browser, 'ADMIN'));
  ({ page: phone } = await signedInAs(browser, 'ADMIN', { viewport: 'phone' }));
});

afterAll(async () => {
  await browser?.close();
});

describe('rough edges', () => {
  it('draws checkboxes, radios and selects like the switches', async () => {
    const brandDark = await computedColour(desktop, 'var(--brand-dark)');
    const controlBorder = await computedColour(desktop, 'var(--control-border)');

    await desktop.goto(appUrl('/private/collections'));
    const publicBox = desktop.locator('input[type="checkbox"]:checked').first();
    await publicBox.waitFor();
    expect(await controlStyle(publicBox)).toEqual({ appearance: 'none', border: brandDark, background: brandDark });

    await desktop.goto(appUrl('/private/users/new-user'));
    const chosenMode = desktop.locator('input[type="radio"]:checked').first();
    await chosenMode.waitFor();
    expect(await controlStyle(chosenMode)).toEqual({ appearance: 'none', border: brandDark, background: brandDark });
    const role = desktop.locator('select').first();
    expect(await controlStyle(role)).toMatchObject({ appearance: 'none', border: controlBorder });
    await expectAccessible(desktop);
    await screenshot(desktop, 'controls-new-user-desktop');

    await desktop.goto(appUrl('/private/operations'));
    const active = desktop.getByLabel('Aviso activo');
    await active.waitFor();
    expect((await controlStyle(active)).appearance).toBe('none');
    expect(await desktop.getByText(/popup/i).count()).toBe(0);
    await expectAccessible(desktop);
    await screenshot(desktop, 'controls-operations-desktop');
    await phone.goto(appUrl('/private/operations'));
    await phone.getByLabel('Aviso activo').waitFor();
    await screenshot(phone, 'controls-operations-phone');
  });

  it("says 'Activo' or 'No activo' for a file everywhere, and 'Categorías' and 'vídeo' with their accents", async () => {
    await desktop.goto(appUrl(`/private/collection/${seedCollections.verano}`));
    await desktop.locator('.collection-file-footer').first().waitFor();
    const states = await desktop.locator('.collection-file-footer .status').allTextContents();
    expect(states.length).toBeGreaterThan(0);
    for (const state of states) expect(['Activo', 'No activo']).toContain(state);
    await screenshot(desktop, 'collection-file-states-desktop');

    await desktop.goto(appUrl('/private/academy/categories'));
    await desktop.getByRole('heading', { level: 1, name: 'Categorías' }).waitFor();
    expect(await desktop.getByRole('link', { name: 'Nueva categoría' }).count()).toBe(1);
    await desktop.getByRole('link', { name: 'Vídeos', exact: true }).click();
    await desktop.getByRole('heading', { level: 1, name: 'Vídeos' }).waitFor();
    expect(await desktop.getByRole('link', { name: 'Nuevo vídeo' }).count()).toBe(1);
    expect(
      await desktop
        .locator('main')
        .getByText(/\b[Vv]ideos?\b|[Cc]ategorias?\b/)
        .count(),
    ).toBe(0);
    await expectAccessible(desktop);
    await screenshot(desktop, 'academy-accents-desktop');
  });

  it('keeps e-mails whole and every role readable in the users list on a phone', async () => {
    await phone.goto(appUrl('/private/users'));
    await phone.locator('.user-row').first().waitFor();
    // Where each address wraps, if it does: only before its '@', never inside a word.
    const breaks = await phone.locator('.user-email').evaluateAll((emails) =>
      emails.flatMap((email) => {
        const text = email.firstChild?.textContent ?? '';
        const tops: Array<{ char: string; top: number }> = [];
        const walker = document.createTreeWalker(email, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let index = 0; index < (node.textContent ?? '').length; index++) {
            const range = document.createRange();
            range.setStart(node, index);
            range.setEnd(node, index + 1);
            tops.push({ char: node.textContent![index]!, top: Math.round(range.getBoundingClientRect().top) });
          }
        }
        return tops
          .filter((entry, index) => index > 0 && entry.top > tops[index - 1]!.top + 2)
          .map((entry) => ({
            text,
            breaksBefore: entry.char,
          }));
      }),
    );
    // Addresses whose parts fit a line (the staff's, not the long random ones other tests create) break only
    // between them; a part longer than the row has to break inside, as any text would.
    const fits = (text: string) => text.split('@').every((part) => part.length <= 24);
    const checked = breaks.filter((wrap) => fits(wrap.text));
    for (const wrap of checked) expect(['@', ' ', '(']).toContain(wrap.breaksBefore);
    expect(await phone.locator('.user-email', { hasText: '@mediateca.local' }).count()).toBeGreaterThan(0);
    const cutRoles = await phone.locator('.user-role select').evaluateAll((selects) =>
      (selects as HTMLSelectElement[]).flatMap((select) => {
        const style = getComputedStyle(select);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = style.font;
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return [...select.options]
          .filter((option) => context.measureText(option.text).width > room)
          .map((option) => option.text);
      }),
    );
    expect(cutRoles).toEqual([]);
    await expectAccessible(phone);
    await screenshot(phone, 'phone-users-list');
  });

  it("offers '← Archivos' on the file detail, and its Guardar bar hides what scrolls under it", async () => {
    for (const page of [phone, desktop]) {
      await page.goto(appUrl(`/private/file/${seedFiles.piscina}`));
      const back = page.locator('.file-detail').getByRole('link', { name: 'Archivos', exact: true });
      await back.waitFor();
      const bar = page.locator('.form-sticky-actions');
      const paint = await bar.evaluate((element) => {
        const style = getComputedStyle(element);
        return { image: style.backgroundImage, colour: style.backgroundColor };
      });
      expect(paint.image).toBe('none');
      expect(paint.colour).toMatch(/^rgb\(/);
      await expectAccessible(page);
      await screenshot(page, `file-detail-back-${page === phone ? 'phone' : 'desktop'}`);
      await back.click();
      await page.waitForURL('**/private/files');
    }
  });

  it('asks before a JPG is replaced by a PDF, and replaces nothing when told no', async () => {
    await desktop.goto(appUrl(`/private/file/${seedFiles.piscina}`));
    await desktop.getByRole('button', { name: 'Subir nuevo archivo' }).waitFor();
    await desktop.setInputFiles('input[aria-label="Subir nuevo archivo"]', {
      name: 'tarifas.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n'),
    });
    const question = desktop.getByRole('alertdialog', { name: 'Reemplazar por otro tipo de archivo' });
    await question
      .getByText(
        'El archivo actual es una imagen JPG y el nuevo es un documento PDF. Las colecciones y los enlaces públicos mostrarán el nuevo archivo. ¿Reemplazarlo de todos modos?',
      )
      .waitFor();
    await expectAccessible(desktop);
    await screenshot(desktop, 'file-replace-other-kind-desktop');
    await question.getByRole('button', { name: 'Cancelar' }).click();
    await expect.poll(() => question.count()).toBe(0);
    const { data } = await client('service_role')
      .from('files')
      .select('original_file_name')
      .eq('id', seedFiles.piscina)
      .single();
    expect(data?.original_file_name).toBe('piscina-principal.jpg');
  });
});
