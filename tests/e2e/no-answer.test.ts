import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import { appUrl, launchBrowser, signedInAs } from '../helpers/browser.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * A screen whose request never answers does not stay on its skeletons: Usuarios, with its staff-users call
 * held by the browser (as a function stalled on a busy server holds it), says in Spanish that the users could
 * not be loaded, within 15 s, with 'Reintentar'; once the server answers again, 'Reintentar' shows the list.
 */

let browser: Browser;
let page: Page;
const held: Route[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  ({ page } = await signedInAs(browser, 'ADMIN'));
});

afterAll(async () => {
  await browser?.close();
});

describe('a request that never answers', () => {
  it('shows the users screen’s Spanish error with Reintentar within 15 s, and Reintentar loads the list', async () => {
    await page.route('**/functions/v1/staff-users', (route) => {
      if (route.request().method() === 'OPTIONS') return route.continue();
      // Never answered while the route is in place.
      held.push(route);
    });
    const started = Date.now();
    await page.goto(appUrl('/private/users'));
    await page.getByRole('status').filter({ hasText: 'Cargando usuarios…' }).waitFor();
    const alert = page.getByRole('alert').filter({ hasText: 'No se pudieron cargar los usuarios.' });
    await alert.waitFor({ timeout: 15_000 });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(held.length).toBeGreaterThan(0);
    await expect(alert.textContent()).resolves.toContain('El servidor tardó demasiado en responder');

    await page.unroute('**/functions/v1/staff-users');
    // The browser gave up on them at the deadline; nothing is left waiting on the held requests.
    await Promise.all(held.map((route) => route.abort().catch(() => {})));
    await alert.getByRole('button', { name: 'Reintentar' }).click();
    await page.getByTestId(`user-${seedAccounts.ADMIN.email}`).waitFor({ timeout: 30_000 });
    expect(await alert.count()).toBe(0);
  });
});
