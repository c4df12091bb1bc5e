import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';

/**
 * Operaciones as an admin: the popup form shows the stored popup, validates, saves with line
 * breaks as <br>, never renders what was typed as HTML, and locks for a moment after saving.
 */

let browser: Browser;
let page: Page;
let service: SupabaseClient;
let original: { title: string; message: string; active: boolean };

const XSS = '<img src=x onerror="window.__popupXss=1"><script>window.__popupXss=2</script>';

beforeAll(async () => {
  service = client('service_role');
  const { data, error } = await service.from('operations_popup').select('title, message, active').eq('id', 1).single();
  expect(error).toBeNull();
  original = data!;
  browser = await launchBrowser();
  ({ page } = await signedInAs(browser, 'ADMIN', { landing: '/private/operations' }));
  await page.waitForURL('**/private/operations');
});

afterAll(async () => {
  await service.from('operations_popup').update(original).eq('id', 1);
  await browser?.close();
});

describe('Operaciones as ADMIN', () => {
  it('shows the stored popup with its <br> as line breaks', async () => {
    await page.getByLabel('Título').waitFor();
    expect(await page.getByLabel('Título').inputValue()).toBe(original.title);
    expect(await page.getByLabel('Mensaje').inputValue()).toBe(original.message.replaceAll('<br>', '\n'));
    expect(await page.getByLabel('Aviso activo').isChecked()).toBe(original.active);
    await expectAccessible(page);
    await screenshot(page, 'operations-desktop');
  });

  it('asks for a title and a message before activating the popup', async () => {
    await page.getByLabel('Título').fill('');
    await page.getByLabel('Aviso activo').check();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('alert').filter({ hasText: 'Todos los campos son obligatorios' }).waitFor();
    expect((await service.from('operations_popup').select('title').eq('id', 1).single()).data!.title).toBe(
      original.title,
    );
  });

  it('saves line breaks as <br>, shows typed markup as text only, and locks the form after saving', async () => {
    await page.getByLabel('Título').fill('Corte de agua <b>hoy</b>');
    await page.getByLabel('Mensaje').fill(`Primera línea\n${XSS}\nÚltima & fin`);
    await page.getByLabel('Aviso activo').check();
    await page.getByRole('button', { name: 'Guardar' }).click();

    // Locked as soon as it has saved, and open again afterwards.
    const form = page.locator('form[data-locked="true"]');
    await form.waitFor();
    await page.getByText('Aviso guardado y activo').waitFor();
    await page.locator('form[data-locked="false"]').waitFor();
    expect(await page.getByLabel('Título').isEnabled()).toBe(true);

    const { data } = await service.from('operations_popup').select('title, message, active').eq('id', 1).single();
    expect(data).toEqual({
      title: 'Corte de agua <b>hoy</b>',
      message:
        'Primera línea<br>&lt;img src=x onerror=&quot;window.__popupXss=1&quot;&gt;&lt;script&gt;window.__popupXss=2&lt;/script&gt;<br>Última &amp; fin',
      active: true,
    });

    const preview = page.getByTestId('popup-preview');
    await preview.getByText(XSS).waitFor();
    expect(await preview.locator('img, script, b').count()).toBe(0);
    expect(await preview.locator('br').count()).toBe(2);
    expect(await page.evaluate(() => (window as { __popupXss?: number }).__popupXss)).toBeUndefined();
    await screenshot(page, 'operations-saved');

    await page.reload();
    await expect.poll(() => page.getByLabel('Mensaje').inputValue()).toBe(`Primera línea\n${XSS}\nÚltima & fin`);
    expect(await page.evaluate(() => (window as { __popupXss?: number }).__popupXss)).toBeUndefined();
  });

  it('fits a phone', async () => {
    const phone = await signedInAs(browser, 'ADMIN', { viewport: 'phone', landing: '/private/operations' });
    await phone.page.waitForURL('**/private/operations');
    await phone.page.getByLabel('Mensaje').waitFor();
    expect(
      await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await expectAccessible(phone.page);
    await screenshot(phone.page, 'operations-phone');
    await phone.context.close();
  });
});
