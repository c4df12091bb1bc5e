import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, inject } from 'vitest';
import { PROJECT_ROOT } from '../../stack/src/stack.ts';
import { seedAccounts, type SeedRole } from './seed.ts';

/**
 * Headless Chromium from npm (@sparticuz/chromium, no download at test time) driven by playwright-core.
 * The flags keep it off the network except for the local app and stack; web security stays on, so CORS is
 * exercised for real.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--no-zygote',
      '--use-gl=angle',
      '--use-angle=swiftshader',
    ],
  });
  // Every context (browser.newPage makes one too) records what the app's Content-Security-Policy blocked.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript(() => {
      const blocked: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = blocked;
      document.addEventListener('securitypolicyviolation', (event) =>
        blocked.push(
          `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`,
        ),
      );
    });
    return context;
  };
  return browser;
}

export const appUrl = (pathname = '/') => `${inject('appUrl')}${pathname}`;

const screenshotDir = path.join(PROJECT_ROOT, 'artifacts', 'screenshots');

/** Saves a screenshot of what the test sees (git-ignored artifacts/) for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/**
 * WCAG 2.2 AA checks with axe-core: no serious or critical violation is accepted. Nor is anything the app's
 * CSP blocked on this page so far: a blocked script, image or request is a broken screen for the user.
 */
export async function expectAccessible(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []),
  ).toEqual([]);
  // axe reads colours as they are drawn: a toast still fading in fails contrast. Finite transitions and
  // animations are let finish first, for 2 s at most (spinners, which never end, are not waited for).
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/**
 * What the page's Realtime socket receives, recorded from before the app opens it: lets a test wait until
 * the app's channel has subscribed and prove that a change reached the browser over the socket (rather
 * than through a refetch).
 */
export function recordRealtimeFrames(page: Page) {
  const received: string[] = [];
  let joinsSent = 0;
  page.on('websocket', (socket) => {
    if (!socket.url().includes('/realtime/v1/websocket')) return;
    socket.on('framesent', (frame) => {
      if (String(frame.payload).includes('"phx_join"')) joinsSent += 1;
    });
    socket.on('framereceived', (frame) => received.push(String(frame.payload)));
  });
  const subscriptions = () => received.filter((frame) => frame.includes('Subscribed to PostgreSQL')).length;
  return {
    /** Resolves once every channel join the page has sent is subscribed to database changes. */
    subscribed: () => expect.poll(() => joinsSent > 0 && subscriptions() === joinsSent).toBe(true),
    /** Postgres change frames whose text contains `text`. */
    changesMentioning: (text: string) =>
      received.filter((frame) => frame.includes('"postgres_changes"') && frame.includes(text)),
  };
}

/** The two screen sizes every screen is looked at in: desktop and a phone. */
export const viewports = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * A fresh browser context signed in as a seed account, on the files screen (or `landing`). Each call is its
 * own session, so tests never share cookies or storage.
 */
export async function signedInAs(
  browser: Browser,
  role: SeedRole,
  options: { viewport?: keyof typeof viewports; landing?: string } = {},
) {
  const context = await browser.newContext({ viewport: viewports[options.viewport ?? 'desktop'] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  const account = seedAccounts[role];
  await page.goto(appUrl(loginWithRedirectPath(options.landing)));
  await signIn(page, account.email, account.password);
  await page.waitForURL((url) => url.pathname !== '/login');
  return { context, page, account };
}

const loginWithRedirectPath = (landing?: string) =>
  landing ? `/login?redirect=${encodeURIComponent(landing)}` : '/login';
