import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { expectAccessible, launchBrowser, layoutSettled, screenshot, viewports } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { seedAccounts, seedTags } from '../helpers/seed.ts';
import { madridDay, shownDay, signedInInMadrid } from '../helpers/rights.ts';

/**
 * The detail screen's rights and metadata: the 'Derechos' section saved and read back, the 'Metadatos' block
 * of a picture whose metadata post-processing read (seeded here as the server writes it), the rights proposed
 * from that metadata until Guardar stores them, 'Etiquetas sugeridas' one click each, and 'Activar' refused
 * for a file whose rights have expired.
 */

let browser: Browser;
const service = () => client('service_role');
const marker = `derechos${crypto.randomUUID().slice(0, 6)}`;

const savedRights = async (id: string) =>
  (
    await service()
      .from('files')
      .select(
        'rights_creator, rights_credit, rights_copyright, rights_license, rights_usage_terms, rights_expire_on, rights_release',
      )
      .eq('id', id)
      .single()
  ).data;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('the Derechos section', () => {
  it('saves author, credit, copyright, licence, terms, expiry and release, and shows them after a reload', async () => {
    const [id] = await insertFiles(marker, 1, { name: () => `${marker} terraza` });
    const { context, page } = await signedInInMadrid(browser, 'ADMIN', `/private/file/${id}`);
    await page.getByRole('group', { name: 'Derechos' }).waitFor();
    const expiry = madridDay(200);

    await page.getByLabel('Autor', { exact: true }).fill('Ana Ruiz');
    await page.getByLabel('Crédito', { exact: true }).fill('Ana Ruiz / Agencia Sol');
    await page.getByLabel('Copyright').fill('© 2026 Hoteles Sol');
    await page.getByLabel('Licencia').selectOption({ label: 'Cedida por el autor' });
    await page.getByLabel('Condiciones de uso').fill('Solo web y redes sociales');
    // Reached from the keyboard, as a person tabbing through the form would.
    await page.getByLabel('Condiciones de uso').press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('rights_expire_on');
    await page.getByLabel('Caducan el').fill(expiry);
    await page.getByLabel('Autorización de modelo o propiedad').selectOption({ label: 'No aplica' });
    await page.getByText('Cambios sin guardar').waitFor();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios guardados.').waitFor();
    await expect
      .poll(() => savedRights(id!))
      .toEqual({
        rights_creator: 'Ana Ruiz',
        rights_credit: 'Ana Ruiz / Agencia Sol',
        rights_copyright: '© 2026 Hoteles Sol',
        rights_license: 'author_ceded',
        rights_usage_terms: 'Solo web y redes sociales',
        rights_expire_on: expiry,
        rights_release: 'not_applicable',
      });

    await page.reload();
    await page.getByLabel('Autor', { exact: true }).waitFor();
    expect(await page.getByLabel('Autor', { exact: true }).inputValue()).toBe('Ana Ruiz');
    expect(await page.getByLabel('Crédito', { exact: true }).inputValue()).toBe('Ana Ruiz / Agencia Sol');
    expect(await page.getByLabel('Copyright').inputValue()).toBe('© 2026 Hoteles Sol');
    expect(await page.getByLabel('Licencia').locator('option:checked').textContent()).toBe('Cedida por el autor');
    expect(await page.getByLabel('Condiciones de uso').inputValue()).toBe('Solo web y redes sociales');
    expect(await page.getByLabel('Caducan el').inputValue()).toBe(expiry);
    expect(await page.getByLabel('Autorización de modelo o propiedad').locator('option:checked').textContent()).toBe(
      'No aplica',
    );
    await page.getByRole('group', { name: 'Derechos' }).scrollIntoViewIfNeeded();
    await layoutSettled(page);
    await screenshot(page, 'file-rights-1440');
    await expectAccessible(page);

    await page.setViewportSize(viewports.phone);
    await page.getByRole('group', { name: 'Derechos' }).scrollIntoViewIfNeeded();
    await layoutSettled(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'file-rights-390');
    await expectAccessible(page);
    await context.close();
  });

  it("refuses 'Activar' for a file whose rights expired yesterday, in Spanish, and says so under the date", async () => {
    const [id] = await insertFiles(marker, 1, {
      name: () => `${marker} caducado`,
      published: false,
      rights_expire_on: madridDay(-1),
    });
    const { context, page } = await signedInInMadrid(browser, 'ADMIN', `/private/file/${id}`);
    await page.getByText('Los derechos han caducado: el archivo no se puede publicar.').waitFor();
    await page.getByRole('button', { name: 'Activar' }).click();
    await page.getByText('No se pueden publicar archivos con los derechos caducados').waitFor();
    expect((await service().from('files').select('published').eq('id', id!).single()).data).toEqual({
      published: false,
    });
    await screenshot(page, 'file-rights-publish-refused');
    await context.close();
  });
});

describe('a past expiry date saved on an active file', () => {
  for (const viewport of ['desktop', 'phone'] as const) {
    it(`says it leaves the public places and asks first, then shows it is not published (${viewport})`, async () => {
      const [id] = await insertFiles(marker, 1, { name: () => `${marker} sale ${viewport}`, published: true });
      const { context, page } = await signedInInMadrid(browser, 'ADMIN', `/private/file/${id}`, viewport);
      await page.getByRole('group', { name: 'Derechos' }).waitFor();
      const past = madridDay(-3);
      await page.getByLabel('Caducan el').fill(past);
      await page.getByRole('button', { name: 'Guardar' }).click();
      const dialog = page.getByRole('alertdialog', { name: '¿Guardar una caducidad ya pasada?' });
      await dialog.getByText(`Los derechos caducaron el ${shownDay(past)}.`, { exact: false }).waitFor();
      expect(await dialog.textContent()).toContain('de su página pública, de los enlaces compartidos y del feed');
      await layoutSettled(page);
      await screenshot(page, `file-rights-past-expiry-confirm-${viewport === 'desktop' ? 1440 : 390}`);
      await expectAccessible(page);

      // Cancelar saves nothing; the form keeps what was typed.
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect((await savedRights(id!))?.rights_expire_on).toBeNull();

      await page.getByRole('button', { name: 'Guardar' }).click();
      await dialog.getByRole('button', { name: 'Guardar y dejar de publicar' }).click();
      await expect.poll(async () => (await savedRights(id!))?.rights_expire_on).toBe(past);
      await page.getByText(`no se publica: sus derechos caducaron el ${shownDay(past)}`, { exact: false }).waitFor();
      await page.getByText(`Caducan el: (vacío) → ${shownDay(past)}`).waitFor();
      await layoutSettled(page);
      if (viewport === 'phone') {
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      }
      await screenshot(page, `file-rights-past-expiry-saved-${viewport === 'desktop' ? 1440 : 390}`);
      await context.close();
    });
  }
});

describe('the expiry date of an uploader', () => {
  it('may not be cleared by the uploader: the database refuses it and the screen says why in Spanish', async () => {
    const expiry = madridDay(60);
    const [id] = await insertFiles(marker, 1, {
      name: () => `${marker} de la uploader`,
      uploader_id: seedAccounts.UPLOADER.id,
      rights_expire_on: expiry,
    });
    const { context, page } = await signedInInMadrid(browser, 'UPLOADER', `/private/file/${id}`);
    await page.getByText('Solo un administrador puede quitar o retrasar esta fecha.').waitFor();
    await page.getByLabel('Caducan el').fill('');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page
      .getByText(
        'No puedes quitar ni retrasar la fecha en que caducan los derechos: solo un administrador puede hacerlo.',
      )
      .waitFor();
    expect((await savedRights(id!))?.rights_expire_on).toBe(expiry);
    await expectAccessible(page);
    await context.close();
  });
});

describe('the Metadatos block, the proposed rights and the suggested tags', () => {
  it('shows what the picture says, proposes its credits until Guardar, and adds a suggested tag in one click', async () => {
    const [id] = await insertFiles(marker, 1, {
      extension: 'jpg',
      width: 8192,
      height: 5464,
      name: () => `${marker} faro de noche`,
      captured_at: '2026-07-14T09:30:15Z',
    });
    const metadata = await service()
      .from('file_metadata')
      .insert({
        file_id: id!,
        camera_make: 'Canon',
        camera_model: 'Canon EOS R5',
        lens: 'RF24-70mm F2.8 L IS USM',
        gps_latitude: 39.569_6,
        gps_longitude: 2.650_2,
        creator: 'José Ñúñez',
        credit: 'Agencia Sol',
        keywords: ['HABITACION', 'spa', 'atardecer'],
      });
    expect(metadata.error).toBeNull();
    const { context, page } = await signedInInMadrid(browser, 'ADMIN', `/private/file/${id}`);

    const block = page.getByRole('region', { name: 'Metadatos' });
    await block.waitFor();
    const fact = (term: string) => block.locator(`dt:text-is("${term}") + dd`);
    // 09:30:15 UTC is 11:30:15 in Madrid in July.
    expect(await fact('Fecha de captura').textContent()).toBe('14/07/2026 a las 11:30:15');
    expect(await fact('Cámara').textContent()).toBe('Canon EOS R5 · RF24-70mm F2.8 L IS USM');
    expect(await fact('Dimensiones').textContent()).toBe('8192 × 5464 px');
    const map = block.getByRole('link', { name: /39,56960, 2,65020/ });
    expect(await map.getAttribute('href')).toContain('openstreetmap.org/?mlat=39.5696&mlon=2.6502');

    // Proposed from the metadata, not saved until Guardar.
    expect(await page.getByLabel('Autor', { exact: true }).inputValue()).toBe('José Ñúñez');
    expect(await page.getByLabel('Crédito', { exact: true }).inputValue()).toBe('Agencia Sol');
    expect(await page.getByText('Tomado de los metadatos del archivo; se guarda al pulsar Guardar.').count()).toBe(2);
    expect((await savedRights(id!))?.rights_creator).toBe('');

    const suggestions = page.getByRole('region', { name: 'Etiquetas sugeridas' });
    await suggestions.getByRole('button').first().waitFor();
    expect(await suggestions.getByRole('button').allTextContents()).toEqual(['+ Habitación', '+ Spa']);
    await layoutSettled(page);
    await screenshot(page, 'file-metadata-1440');
    await expectAccessible(page);

    await suggestions.getByRole('button', { name: 'Añadir etiqueta sugerida Habitación' }).click();
    await page.getByRole('button', { name: 'Quitar etiqueta Habitación' }).waitFor();
    expect(await suggestions.getByRole('button').allTextContents()).toEqual(['+ Spa']);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios guardados.').waitFor();
    await expect
      .poll(async () => (await service().from('file_tags').select('tag_id').eq('file_id', id!)).data)
      .toEqual([{ tag_id: seedTags.habitacion }]);
    expect(await savedRights(id!)).toMatchObject({ rights_creator: 'José Ñúñez', rights_credit: 'Agencia Sol' });
    await expect
      .poll(() => page.getByText('Tomado de los metadatos del archivo; se guarda al pulsar Guardar.').count())
      .toBe(0);

    await page.setViewportSize(viewports.phone);
    await block.scrollIntoViewIfNeeded();
    await layoutSettled(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'file-metadata-390');
    await expectAccessible(page);
    await context.close();
  });

  it('hides the block and the suggestions for a file that says nothing about itself', async () => {
    const [id] = await insertFiles(marker, 1, { name: () => `${marker} contrato`, width: null, height: null });
    const { context, page } = await signedInInMadrid(browser, 'ADMIN', `/private/file/${id}`);
    await page.getByRole('group', { name: 'Derechos' }).waitFor();
    // Asked again from a loaded screen, so the answer (none) is known before looking for the suggestions.
    const suggested = page.waitForResponse((response) => response.url().includes('/rpc/suggested_tags'));
    await page.reload();
    expect((await suggested).status()).toBe(200);
    await page.getByRole('group', { name: 'Derechos' }).waitFor();
    expect(await page.getByRole('region', { name: 'Metadatos' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Etiquetas sugeridas' }).count()).toBe(0);
    await context.close();
  });
});
