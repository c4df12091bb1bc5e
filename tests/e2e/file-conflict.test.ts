import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client, signedInSeed } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';

/**
 * Two people editing one file: the second Guardar does not silently overwrite the first. The form
 * shows what the other person changed beside the user's own values, and either version can be kept.
 */
let browser: Browser;
const service = () => client('service_role');
const row = async (id: string) =>
  (await service().from('files').select('name_es, name_en').eq('id', id).single()).data!;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function editWhileSomeoneElseSaves(id: string) {
  const { context, page } = await signedInAs(browser, 'ADMIN', { landing: `/private/file/${id}` });
  await page.getByLabel('Título', { exact: true }).waitFor();
  await page.getByLabel('Título', { exact: true }).fill('Título de Ana');
  // Meanwhile, another admin saves the English title.
  const other = await service().from('files').update({ name_en: 'Title by Luis' }).eq('id', id);
  expect(other.error).toBeNull();
  await page.getByRole('button', { name: 'Guardar', exact: true }).click();
  const conflict = page.getByRole('alert').filter({ hasText: 'Otra persona ha cambiado este archivo' });
  await conflict.waitFor();
  return { context, page, conflict };
}

describe('editing a file someone else has just saved', () => {
  it('refuses the silent overwrite, shows both versions, and keeps yours when asked', async () => {
    const [id] = await insertFiles(`conf${crypto.randomUUID().slice(0, 6)}`, 1);
    const { context, page, conflict } = await editWhileSomeoneElseSaves(id!);
    // Nothing of Ana's was written by the refused save.
    expect((await row(id!)).name_es).not.toBe('Título de Ana');
    const changed = conflict.getByRole('row', { name: /Título \(inglés\)/ });
    expect(await changed.getByRole('cell').allTextContents()).toEqual(['Title by Luis', expect.any(String)]);
    await screenshot(page, 'file-detail-conflict');
    await expectAccessible(page);
    await conflict.getByRole('button', { name: 'Guardar mi versión' }).click();
    await page.getByText('Cambios guardados.').waitFor();
    await expect.poll(async () => (await row(id!)).name_es).toBe('Título de Ana');
    // The panel closes once the saved version is the form's new base (after the toast, not necessarily with it).
    await conflict.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe('Título de Ana');
    await context.close();
  });

  it("takes the other person's version into the form when asked", async () => {
    const [id] = await insertFiles(`conf${crypto.randomUUID().slice(0, 6)}`, 1);
    const { context, page, conflict } = await editWhileSomeoneElseSaves(id!);
    await conflict.getByRole('button', { name: 'Usar su versión' }).click();
    await expect.poll(() => page.getByLabel('Título (inglés)').inputValue()).toBe('Title by Luis');
    expect(await row(id!)).toMatchObject({ name_en: 'Title by Luis' });
    expect((await row(id!)).name_es).not.toBe('Título de Ana');
    await context.close();
  });
});

describe('Historial', () => {
  it("shows another session's edit in the file's timeline, live", async () => {
    const [id] = await insertFiles(`hist${crypto.randomUUID().slice(0, 6)}`, 1);
    const { context, page } = await signedInAs(browser, 'ADMIN', { landing: `/private/file/${id}` });
    const timeline = page.getByRole('region', { name: 'Historial' });
    await timeline.getByText('Subió el archivo', { exact: false }).waitFor();
    const other = await signedInSeed('ADMIN');
    const version = (await other.from('files').select('updated_at').eq('id', id!).single()).data!;
    const save = await other.rpc('update_file', {
      p_file_id: id!,
      p_name_en: 'Title from elsewhere',
      p_tag_ids: [],
      p_expected_updated_at: version.updated_at,
      p_expected_tag_ids: [],
    });
    expect(save.error).toBeNull();
    await timeline.getByText('Título (inglés):', { exact: false }).waitFor({ timeout: 15_000 });
    expect(await timeline.getByText('→ Title from elsewhere', { exact: false }).count()).toBe(1);
    await screenshot(page, 'file-detail-history');
    await expectAccessible(page);
    await context.close();
  });
});
