import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Browser } from 'playwright-core';
import { expectAccessible, launchBrowser, recordRealtimeFrames, screenshot, signedInAs } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';

/**
 * Postgres restarts under an open app, as a managed database's restart or failover would: the app
 * says it is reconnecting, Realtime rejoins by itself, queries work again, and what the user typed in an open
 * form is still there and can be saved.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const restartDatabase = () => fetch(`${inject('stackControlUrl')}/restart-database`, { method: 'POST' });

describe('a database restart while the app is open', () => {
  it('shows the reconnecting state, rejoins, refetches, and keeps what was typed', async () => {
    const marker = `rst${crypto.randomUUID().slice(0, 6)}`;
    const [fileId, otherId] = await insertFiles(marker, 2);
    const { context, page } = await signedInAs(browser, 'ADMIN', { landing: `/private/file/${fileId}` });
    const frames = recordRealtimeFrames(page);
    await page.reload();
    const title = page.getByLabel('Título', { exact: true });
    await title.waitFor();
    const changeArrives = async (text: string) => {
      const edit = await client('service_role').from('files').update({ name_en: text }).eq('id', otherId!);
      expect(edit.error).toBeNull();
      await expect.poll(() => frames.changesMentioning(text).length, { timeout: 15_000 }).toBeGreaterThan(0);
    };
    await changeArrives(`${marker} before`);
    await title.fill('Escrito antes del reinicio');

    const banner = page.getByRole('status').filter({ hasText: 'Sin conexión con el servidor. Reconectando…' });
    const restarted = restartDatabase();
    await banner.waitFor();
    await screenshot(page, 'database-restart-reconnecting');
    await expectAccessible(page);
    expect((await restarted).status).toBe(204);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });

    // Realtime is subscribed again: another session's change made after the restart arrives over the socket.
    await changeArrives(`${marker} after`);

    // Nothing typed was lost, and it saves.
    expect(await title.inputValue()).toBe('Escrito antes del reinicio');
    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    await page.getByText('Cambios guardados.').waitFor();
    const saved = await client('service_role').from('files').select('name_es').eq('id', fileId!).single();
    expect(saved.data?.name_es).toBe('Escrito antes del reinicio');
    await context.close();
  });
});
