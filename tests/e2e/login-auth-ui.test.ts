import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { appUrl, expectAccessible, launchBrowser, screenshot, viewports } from '../helpers/browser.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * /login on Supabase Auth UI: Spanish labels, no sign-up or magic-link links, the button disabled
 * while the sign-in is on its way, the brand colour, and the same screen at 1440 and 390 px.
 */

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('sign-in with Auth UI', () => {
  for (const viewport of ['desktop', 'phone'] as const) {
    it(`is accessible and offers only the sign-in, on a ${viewport}`, async () => {
      const context = await browser.newContext({ locale: 'es-ES', viewport: viewports[viewport] });
      const page = await context.newPage();
      await page.goto(appUrl('/login'));
      await page.getByLabel('Correo electrónico').waitFor();
      expect(await page.getByLabel('Contraseña').getAttribute('type')).toBe('password');
      // Auth UI's own links stay off; the one link is the app's password recovery.
      expect(await page.getByRole('link').allTextContents()).toEqual(['¿Has olvidado tu contraseña?']);
      for (const text of ['Sign up', 'Regístrate', 'magic link', 'Forgot', 'contraseña olvidada'])
        expect(await page.getByText(text).count()).toBe(0);
      // The deployment's colour, darkened so white text on it passes AA (Mediateca: #0084D8 → #005f9b). Auth UI
      // eases the button's background in as its styles arrive, so the colour is read once it has settled.
      await expect
        .poll(() =>
          page.getByRole('button', { name: 'Entrar' }).evaluate((button) => getComputedStyle(button).backgroundColor),
        )
        .toBe('rgb(0, 95, 156)');
      await expectAccessible(page);
      await screenshot(page, `login-${viewport}`);
      await context.close();
    });
  }

  it('disables the button while signing in, then lands on the files screen', async () => {
    const context = await browser.newContext({ locale: 'es-ES', viewport: viewports.desktop });
    const page = await context.newPage();
    await page.goto(appUrl('/login'));
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let reached: () => void = () => {};
    const isHeld = new Promise<void>((resolve) => (reached = resolve));
    await page.route('**/auth/v1/token**', async (route) => {
      reached();
      await released;
      await route.continue();
    });
    await page.getByLabel('Correo electrónico').fill(seedAccounts.ADMIN.email);
    await page.getByLabel('Contraseña').fill(seedAccounts.ADMIN.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await isHeld;
    const busy = page.getByRole('button', { name: 'Entrando…' });
    expect(await busy.isDisabled()).toBe(true);
    await screenshot(page, 'login-signing-in');
    release();
    await page.waitForURL('**/private/files');
    await context.close();
  });

  it("asks for the grid's first page beside the tags, not after them, and catches up once the channel joins", async () => {
    const context = await browser.newContext({ locale: 'es-ES', viewport: viewports.desktop });
    const page = await context.newPage();
    await page.goto(appUrl('/login'));
    let firstPageAsked: () => void = () => {};
    const firstPageIsAsked = new Promise<void>((resolve) => (firstPageAsked = resolve));
    page.on('request', (request) => {
      if (request.url().includes('/rest/v1/rpc/search_files')) firstPageAsked();
    });
    // The tags are held until the grid's page has been asked for: a page that waited for them never would be.
    let tagReads = 0;
    let askedWhileTagsLoaded: boolean | null = null;
    await page.route('**/rest/v1/tags?**', async (route) => {
      tagReads++;
      if (tagReads === 1) {
        askedWhileTagsLoaded = await Promise.race([
          firstPageIsAsked.then(() => true),
          new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000)),
        ]);
      }
      await route.continue();
    });
    await page.getByLabel('Correo electrónico').fill(seedAccounts.ADMIN.email);
    await page.getByLabel('Contraseña').fill(seedAccounts.ADMIN.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.locator('.file-card').first().waitFor();
    expect(askedWhileTagsLoaded).toBe(true);
    // The realtime channel's join is followed by a catch-up read of every watched cache, the tags among them.
    await expect.poll(() => tagReads, { timeout: 15_000 }).toBe(2);
    await context.close();
  });
});
