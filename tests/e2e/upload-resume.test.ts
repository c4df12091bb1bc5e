import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import { appUrl, launchBrowser, signIn } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { FILE_INPUT, waitForUploaded } from '../helpers/upload.ts';

/** Uploads that survive the network: a cut connection and a page reload both resume. */

let browser: Browser;
let dir: string;
const MiB = 1024 * 1024;

async function signedInPage(): Promise<Page> {
  const page = await (await browser.newContext({ locale: 'es-ES' })).newPage();
  await page.goto(appUrl('/login'));
  await signIn(page, seedAccounts.UPLOADER.email, seedAccounts.UPLOADER.password);
  await page.waitForURL('**/private/files');
  await page.goto(appUrl('/private/upload'));
  await page.getByText('Arrastrar archivos aquí o').waitFor();
  return page;
}

async function storedSha256(originalName: string): Promise<string> {
  const service = client('service_role');
  const { data } = await service.from('files').select('object_path').eq('original_file_name', originalName).single();
  const bytes = await service.storage.from('media').download(data!.object_path);
  return createHash('sha256')
    .update(Buffer.from(await bytes.data!.arrayBuffer()))
    .digest('hex');
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-resume-'));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('resumable uploads in the browser', () => {
  it('continues by itself after the connection drops mid-upload, ending sha256-identical', async () => {
    const name = `corte-${crypto.randomUUID().slice(0, 6)}.bin`;
    const bytes = randomBytes(20 * MiB);
    await writeFile(path.join(dir, name), bytes);
    const page = await signedInPage();
    let patches = 0;
    let cut = false;
    await page.route('**/storage/v1/upload/resumable/**', async (route) => {
      if (route.request().method() === 'PATCH' && ++patches === 2 && !cut) {
        cut = true;
        await route.abort('connectionreset');
        return;
      }
      await route.continue();
    });
    await page.setInputFiles(FILE_INPUT, path.join(dir, name));
    await waitForUploaded(page, 1, 60_000);
    expect(cut).toBe(true);
    expect(await storedSha256(name)).toBe(createHash('sha256').update(bytes).digest('hex'));
  }, 120_000);

  it('resumes from the server offset when the same file is offered again after a reload', async () => {
    const name = `recarga-${crypto.randomUUID().slice(0, 6)}.bin`;
    const bytes = randomBytes(30 * MiB);
    await writeFile(path.join(dir, name), bytes);
    const page = await signedInPage();
    const seen: Array<{ method: string; url: string }> = [];
    const record = (request: Request) => {
      if (request.url().includes('/upload/resumable')) seen.push({ method: request.method(), url: request.url() });
    };
    page.on('request', record);
    let stall: () => void = () => {};
    const stalled = new Promise<void>((resolve) => (stall = resolve));
    // Let the first chunk through, then hold the second so the page can be reloaded mid-upload.
    let patches = 0;
    await page.route('**/storage/v1/upload/resumable/**', async (route) => {
      if (route.request().method() === 'PATCH' && ++patches === 2) {
        stall();
        return; // never answered: the reload tears it down
      }
      await route.continue();
    });
    await page.setInputFiles(FILE_INPUT, path.join(dir, name));
    await stalled;
    const firstUrl = seen.find((r) => r.method === 'PATCH')!.url;
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.reload();
    await page.getByText('Arrastrar archivos aquí o').waitFor();
    seen.length = 0;
    await page.setInputFiles(FILE_INPUT, path.join(dir, name));
    await waitForUploaded(page, 1, 60_000);
    // The second session asked the server where the first one stopped instead of creating a new upload.
    expect(seen.some((r) => r.method === 'HEAD' && r.url === firstUrl)).toBe(true);
    expect(seen.some((r) => r.method === 'POST')).toBe(false);
    expect(await storedSha256(name)).toBe(createHash('sha256').update(bytes).digest('hex'));
  }, 120_000);
});
