import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  appUrl,
  expectAccessible,
  launchBrowser,
  recordRealtimeFrames,
  recordRequests,
  screenshot,
  signIn,
} from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { pickTags } from '../helpers/tags.ts';

/** The file detail screen: form, tags, options, copy URL, publish and delete. */

let browser: Browser;
const service = () => client('service_role');

async function makeFile(uploaderId: string, name: string) {
  const id = crypto.randomUUID();
  const { error } = await service()
    .from('files')
    .insert({
      id,
      file_name: 'd.pdf',
      object_path: `${id}/d.pdf`,
      original_file_name: `${name}.pdf`,
      name_es: name,
      name_en: name,
      size: 2048,
      extension: 'pdf',
      processing: false,
      uploader_id: uploaderId,
      uploader_email: 'x@mediateca.local',
    });
  if (error) throw error;
  return id;
}

async function openAs(email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(appUrl('/login'));
  await signIn(page, email, password);
  await page.waitForURL('**/private/files');
  return { context, page };
}

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('file detail', () => {
  it('edits bilingual fields, tags and collections, copies the URL, publishes and deletes', async () => {
    const id = await makeFile('a0000000-0000-4000-8000-000000000001', `detalle${crypto.randomUUID().slice(0, 6)}`);
    const { context, page } = await openAs(seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(appUrl(`/private/file/${id}`));
    await page.getByLabel('Título', { exact: true }).waitFor();
    await expectAccessible(page);

    await page.getByLabel('Título', { exact: true }).fill('');
    await expect.poll(() => page.getByText('El campo es obligatorio.').count()).toBe(1);
    await page.getByLabel('Título', { exact: true }).fill('Vestíbulo principal');
    await page.getByLabel('Título (inglés)').fill('Main lobby');
    await page.getByLabel('Descripción', { exact: true }).fill('Entrada del hotel');
    await pickTags(page, ['Piscina']);
    await page.getByLabel('Material para agencias').check();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect
      .poll(
        async () =>
          (await service().from('files').select('name_es, name_en, description_es').eq('id', id).single()).data,
      )
      .toEqual({
        name_es: 'Vestíbulo principal',
        name_en: 'Main lobby',
        description_es: 'Entrada del hotel',
      });
    expect((await service().from('file_tags').select('tag_id').eq('file_id', id)).data).toEqual([
      { tag_id: 'd0000000-0000-4000-8000-000000000001' },
    ]);
    expect((await service().from('collection_files').select('collection_id').eq('file_id', id)).data).toEqual([
      { collection_id: 'e0000000-0000-4000-8000-000000000002' },
    ]);
    await screenshot(page, 'file-detail');

    await page.getByRole('button', { name: 'Copiar URL' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'URL copiada' }).count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/file/${id}$`));
    await expect.poll(() => page.getByRole('button', { name: 'Copiar URL' }).count(), { timeout: 3000 }).toBe(1);

    await page.getByRole('button', { name: 'Activar' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Desactivar' }).count()).toBe(1);
    expect((await service().from('files').select('published').eq('id', id).single()).data?.published).toBe(true);

    await page.getByRole('button', { name: 'Borrar' }).click();
    // The question says where the file goes; it can be restored, so it is not 'no se puede deshacer'.
    const question = page.getByRole('alertdialog').getByText('¿Seguro que deseas borrar', { exact: false });
    expect(await question.textContent()).toMatch(/Se moverá a la Papelera durante 30 días/);
    expect(await question.textContent()).not.toMatch(/no se puede deshacer/);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.waitForURL(/\/private\/files$/);
    expect((await service().from('files').select('id').eq('id', id)).data).toEqual([]);
    await context.close();
  });

  it('asks for the file and its history once after a save, and never for the file it has just deleted', async () => {
    // A save refetched the detail and history once per changed row (up to 5 times), and Borrar
    // asked for the deleted file (HTTP 406) before leaving.
    const id = await makeFile('a0000000-0000-4000-8000-000000000001', `peticiones${crypto.randomUUID().slice(0, 6)}`);
    const { context, page } = await openAs(seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
    const asked = { file: 0, history: 0, failed: [] as string[] };
    page.on('request', (request) => {
      const url = decodeURIComponent(request.url());
      if (url.includes('/rest/v1/files?') && url.includes(`id=eq.${id}`)) asked.file += 1;
      if (url.includes('/rest/v1/file_history?') && url.includes(`file_id=eq.${id}`)) asked.history += 1;
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && response.url().includes('/rest/v1/')) asked.failed.push(response.url());
    });
    const realtime = recordRealtimeFrames(page);
    const network = recordRequests(page);
    await page.goto(appUrl(`/private/file/${id}`));
    await page.getByLabel('Título', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Historial' }).waitFor();
    await realtime.subscribed();
    // The screen's first requests are over before the counting starts.
    await network.quiet();
    asked.file = 0;
    asked.history = 0;

    await page.getByLabel('Título (inglés)').fill('Requests');
    await pickTags(page, ['Piscina', 'Spa']);
    await page.getByLabel('Material para agencias').check();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios guardados.').waitFor();
    // The save's row and its two tag links come back over Realtime; whatever the app fetches because of them
    // has been asked for once the network is quiet after they arrived.
    await expect.poll(() => realtime.changesMentioning(id).length).toBeGreaterThanOrEqual(3);
    await network.quiet();
    expect(asked).toEqual({ file: 1, history: 1, failed: [] });

    await page.getByRole('button', { name: 'Borrar' }).click();
    asked.file = 0;
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.waitForURL(/\/private\/files$/);
    await network.quiet();
    expect(asked.file).toBe(0);
    expect(asked.failed).toEqual([]);
    await context.close();
  });

  it('shows an uploader neither options nor collections nor admin buttons', async () => {
    const id = await makeFile('a0000000-0000-4000-8000-000000000002', `propio${crypto.randomUUID().slice(0, 6)}`);
    const { context, page } = await openAs(seedAccounts.UPLOADER.email, seedAccounts.UPLOADER.password);
    await page.goto(appUrl(`/private/file/${id}`));
    await page.getByLabel('Título', { exact: true }).waitFor();
    for (const text of ['Opciones', 'Colecciones']) expect(await page.getByText(text, { exact: true }).count()).toBe(0);
    for (const name of ['Activar', 'Desactivar', 'Borrar'])
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    await page.getByLabel('Título (inglés)').fill('Renamed by uploader');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect
      .poll(async () => (await service().from('files').select('name_en').eq('id', id).single()).data?.name_en)
      .toBe('Renamed by uploader');
    await screenshot(page, 'file-detail-uploader');
    await context.close();
  });

  it('replaces the bytes of a file, keeping its id and changing its original name', async () => {
    const id = await makeFile('a0000000-0000-4000-8000-000000000002', `reemplazo${crypto.randomUUID().slice(0, 6)}`);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-replace-'));
    const png = path.join(dir, 'nueva version.png');
    await writeFile(
      png,
      await sharp({ create: { width: 640, height: 480, channels: 3, background: '#ffaa00' } })
        .png()
        .toBuffer(),
    );
    const { context, page } = await openAs(seedAccounts.UPLOADER.email, seedAccounts.UPLOADER.password);
    await page.goto(appUrl(`/private/file/${id}`));
    await page.getByLabel('Título', { exact: true }).waitFor();
    await page.setInputFiles('input[aria-label="Subir nuevo archivo"]', png);
    // A document replaced by a picture is asked about first; confirmed, it goes ahead.
    const question = page.getByRole('alertdialog', { name: 'Reemplazar por otro tipo de archivo' });
    await question.getByText(/^El archivo actual es un documento PDF y el nuevo es una imagen PNG\./).waitFor();
    await question.getByRole('button', { name: 'Reemplazar' }).click();
    await expect
      .poll(
        async () => (await service().from('files').select('original_file_name, extension').eq('id', id).single()).data,
        { timeout: 30_000 },
      )
      .toEqual({ original_file_name: 'nueva version.png', extension: 'png' });
    await expect
      .poll(async () => (await service().from('files').select('processing, width').eq('id', id).single()).data, {
        timeout: 30_000,
      })
      .toEqual({ processing: false, width: 640 });
    await context.close();
  }, 90_000);
});
