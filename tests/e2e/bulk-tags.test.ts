import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot, signedInAs, appUrl } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { madridDay } from '../helpers/rights.ts';
import { seedTags } from '../helpers/seed.ts';

/**
 * The selection bar's 'Añadir etiquetas' and 'Quitar etiquetas' (other tags stay), on a wide screen and a
 * phone, and a bulk 'Activar' that names the file a rule refuses and offers to activate the others.
 */
let browser: Browser;
const service = () => client('service_role');

const tagsOf = async (ids: string[]) => {
  const { data, error } = await service().from('file_tags').select('file_id, tag_id').in('file_id', ids);
  expect(error).toBeNull();
  return ids.map((id) =>
    data!
      .filter((row) => row.file_id === id)
      .map((row) => row.tag_id)
      .sort(),
  );
};

async function selectAll(page: Page, marker: string, count: number) {
  await page.goto(appUrl(`/private/files?q=${marker}`));
  await page.getByRole('button', { name: `Seleccionar todos (${count})` }).click();
  await expect.poll(() => page.getByText(`${count} seleccionados`).count()).toBe(1);
}

async function chooseTag(page: Page, name: string, apply: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Buscar etiqueta' }).fill(name);
  await dialog.getByRole('option', { name, exact: true }).click();
  await dialog.getByRole('button', { name: apply }).click();
}

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('adding and removing tags of a selection', () => {
  it('adds a tag on a wide screen and takes it away on a phone, keeping the files’ other tags', async () => {
    const marker = `etq${crypto.randomUUID().slice(0, 6)}`;
    const ids = await insertFiles(marker, 3);
    const linked = await service()
      .from('file_tags')
      .insert(ids.map((id) => ({ file_id: id, tag_id: seedTags.verano })));
    expect(linked.error).toBeNull();

    const wide = await signedInAs(browser, 'ADMIN');
    await selectAll(wide.page, marker, 3);
    await wide.page.getByRole('button', { name: 'Etiquetas...' }).click();
    await wide.page.getByRole('menuitem', { name: 'Añadir etiquetas...' }).click();
    await wide.page.getByRole('dialog').getByText('que conservarán las que ya tienen').waitFor();
    await expectAccessible(wide.page);
    await screenshot(wide.page, 'bulk-tags-add-1440');
    await chooseTag(wide.page, 'Piscina', 'Añadir 1 etiqueta');
    await wide.page.getByText('Etiqueta añadida a 3 archivos.').waitFor();
    const both = [seedTags.piscina, seedTags.verano].sort();
    expect(await tagsOf(ids)).toEqual([both, both, both]);
    await wide.context.close();

    const phone = await signedInAs(browser, 'ADMIN', { viewport: 'phone' });
    await selectAll(phone.page, marker, 3);
    await phone.page.getByRole('button', { name: 'Más acciones' }).click();
    await phone.page.getByRole('menuitem', { name: 'Quitar etiquetas...' }).click();
    await chooseTag(phone.page, 'Piscina', 'Quitar 1 etiqueta');
    await phone.page.getByText('Etiqueta quitada de 3 archivos.').waitFor();
    await screenshot(phone.page, 'bulk-tags-removed-390');
    expect(await tagsOf(ids)).toEqual([[seedTags.verano], [seedTags.verano], [seedTags.verano]]);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.context.close();
  });
});

describe('a bulk action refused for some files', () => {
  it("names the file with expired rights and offers 'Activar los demás (6)'", async () => {
    const marker = `act${crypto.randomUUID().slice(0, 6)}`;
    const ids = await insertFiles(marker, 7, {
      name: (index) => (index === 0 ? `${marker} Piscina 2019` : `${marker} ${index}`),
    });
    const expired = await service()
      .from('files')
      .update({ rights_expire_on: madridDay(-1) })
      .eq('id', ids[0]!);
    expect(expired.error).toBeNull();

    // On a phone first, where nothing is activated; then on a wide screen, activating the others.
    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await signedInAs(browser, 'ADMIN', { viewport });
      await selectAll(page, marker, 7);
      if (viewport === 'phone') {
        await page.getByRole('button', { name: 'Más acciones' }).click();
        await page.getByRole('menuitem', { name: 'Activar', exact: true }).click();
      } else {
        await page.getByRole('button', { name: 'Activar', exact: true }).click();
      }
      await page.getByText(`1 archivo no se puede activar: derechos caducados — «${marker} Piscina 2019»`).waitFor();
      const others = page.getByRole('button', { name: 'Activar los demás (6)' });
      await others.waitFor();
      await screenshot(page, viewport === 'phone' ? 'bulk-activate-refused-390' : 'bulk-activate-refused-1440');
      expect((await service().from('files').select('id').in('id', ids).eq('published', true)).data).toEqual([]);
      if (viewport === 'desktop') {
        await others.click();
        await page.getByText('6 archivos activados.').waitFor();
        const published = await service().from('files').select('id').in('id', ids).eq('published', true);
        expect(published.data?.map((row) => row.id).sort()).toEqual(ids.slice(1).sort());
      }
      await context.close();
    }
  });
});
