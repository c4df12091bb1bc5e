import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { eventually } from '../helpers/checks.ts';
import { insertFiles } from '../helpers/factories.ts';

/**
 * A server job that failed for good: the admin reads what failed, in Spanish only, on the file's detail,
 * presses 'Reintentar', and the server finishes the work without anyone reloading.
 */

let browser: Browser;
let service: SupabaseClient;

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('failed post-processing', () => {
  it("shows the failure to an admin and finishes the file after 'Reintentar'", async () => {
    const marker = `reintento${crypto.randomUUID().slice(0, 6)}`;
    // A new upload whose bytes are not stored yet: the worker's first attempt fails (the object is missing).
    const [fileId] = await insertFiles(marker, 1, { extension: 'png', processing: true });
    const { data: file } = await service.from('files').select('object_path').eq('id', fileId!).single();
    const job = await eventually(async () => {
      const { data } = await service
        .from('server_jobs')
        .select('id, last_error')
        .eq('file_id', fileId!)
        .eq('kind', 'process_upload')
        .not('last_error', 'is', null)
        .maybeSingle();
      return data ?? undefined;
    });
    // Its attempts used up (as after six failures an hour apart), then the bytes arrive.
    await service
      .from('server_jobs')
      .update({ state: 'failed', finished_at: new Date().toISOString() })
      .eq('id', job.id);
    const png = await readFile(path.resolve('supabase/seed-media/f0000000-0000-4000-8000-000000000003/u0003.png'));
    const stored = await service.storage.from('media').upload(file!.object_path, png, { contentType: 'image/png' });
    expect(stored.error).toBeNull();

    for (const viewport of ['desktop', 'phone'] as const) {
      const { page, context } = await signedInAs(browser, 'ADMIN', { viewport, landing: `/private/file/${fileId}` });
      const problem = page.getByRole('alert').filter({ hasText: 'no se volverá a intentar sola' });
      await problem.waitFor();
      expect(await problem.textContent()).toContain(
        'No se pudo procesar el archivo (tamaño, tipo, huella y miniaturas).',
      );
      // The job's technical error stays in the logs: nothing a person reads is developer English.
      expect(await page.getByText(job.last_error!).count()).toBe(0);
      await expectAccessible(page);
      await screenshot(page, `file-job-failed-${viewport}`);
      await context.close();
    }

    const { page, context } = await signedInAs(browser, 'ADMIN', { landing: `/private/file/${fileId}` });
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await page.getByText('Se volverá a intentar ahora.').waitFor();
    // The worker processes it: the spinner goes, the preview comes, the problem panel disappears.
    await page.getByRole('img', { name: /^Vista previa de/ }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByText('No se pudo procesar el archivo').count(), { timeout: 15_000 }).toBe(0);
    const { data: done } = await service.from('files').select('processing, width, checksum').eq('id', fileId!).single();
    expect(done).toMatchObject({ processing: false });
    expect(done!.width).toBeGreaterThan(0);
    await screenshot(page, 'file-job-retried');
    await context.close();
  }, 120_000);
});
