import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';
import type { RunningStack } from '@mediateca/stack';
import { seedAccounts } from '../../tests/helpers/seed.ts';
import { serveBuiltApp } from '../../scripts/serve-built-app.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The production build of the app, pointed at `stack`, served on a free port, with a headless Chromium:
 * what the browser benchmarks measure. `work` gets the site's URL and the browser; both are closed after.
 */
export async function withAppInChromium<T>(
  stack: Pick<RunningStack, 'apiUrl' | 'anonKey'>,
  work: (site: { url: string; browser: Browser }) => Promise<T>,
): Promise<T> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-bench-app-'));
  process.env.VITE_SUPABASE_URL = stack.apiUrl;
  process.env.VITE_SUPABASE_ANON_KEY = stack.anonKey;
  await build({ root: projectRoot, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  const site = await serveBuiltApp(outDir);
  const browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    return await work({ url: site.url, browser });
  } finally {
    await browser.close();
    await site.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

/** Signs the seed admin in through the sign-in screen; resolves when the button has been pressed. */
export async function signInAsAdmin(page: Page, appUrl: string): Promise<void> {
  await page.goto(`${appUrl}/login`);
  await page.getByLabel('Correo electrónico').fill(seedAccounts.ADMIN.email);
  await page.getByLabel('Contraseña').fill(seedAccounts.ADMIN.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}
