import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type Page, type Request } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, inject } from 'vitest';
import { PROJECT_ROOT } from '@mediateca/stack';
import { seedAccounts, type SeedRole } from './seed.ts';

/**
 * Headless Chromium from npm (@sparticuz/chromium, no download at test time) driven by playwright-core.
 * The flags keep it off the network except for the local app and stack; web security stays on, so CORS is
 * exercised for real. `scrollbars` draws them as a desktop browser does (they narrow the page).
 */
export async function launchBrowser(options: { scrollbars?: boolean } = {}): Promise<Browser> {
  const browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    headless: true,
    // Headless Chromium hides scrollbars unless asked not to; a desktop browser shows them and they take room.
    ignoreDefaultArgs: options.scrollbars ? ['--hide-scrollbars'] : undefined,
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
 * Waits until the page has stopped changing on its own: fonts loaded, no loading placeholder or spinner left,
 * every image in view decoded, and no transition or finite animation running (the skeleton shimmer loops
 * forever and is gone by then anyway). What a test measures of the layout is then the layout a person sees.
 */
export async function layoutSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    if (document.fonts.status !== 'loaded') return false;
    const inView = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
    };
    const loading = '.skeleton, .skeleton-grid, .skeleton-list, .spinner, .full-screen-spinner, .public-loading';
    if ([...document.querySelectorAll(`${loading}, [aria-busy="true"]`)].some(inView)) return false;
    if ([...document.images].some((image) => inView(image) && !image.complete)) return false;
    return document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity);
  });
  await nextFrames(page);
}

/** Resolves after the page has drawn two more frames: what a scroll or a click set off has been laid out. */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * Every distinct value the window's scroll position, the URL's query or the top of an element on screen took,
 * read on every frame for `ms` of the page's time: a person reading the screen for a moment. One value means
 * nothing moved meanwhile; a jump and a jump back are seen too, which a look at the end would miss.
 */
export async function valuesOver(
  page: Page,
  ms: number,
  what: 'scrollY' | 'search' | { top: string },
): Promise<Array<number | string | null>> {
  return page.evaluate(
    ([duration, read]) =>
      new Promise<Array<number | string | null>>((done) => {
        const seen: Array<number | string | null> = [];
        const end = performance.now() + duration;
        const sample = () => {
          const value =
            read === 'scrollY'
              ? window.scrollY
              : read === 'search'
                ? window.location.search
                : (() => {
                    const box = document.querySelector(read.top)?.getBoundingClientRect();
                    return box ? Math.round(box.top) : null;
                  })();
          if (seen.at(-1) !== value) seen.push(value);
          if (performance.now() < end) requestAnimationFrame(sample);
          else done(seen);
        };
        sample();
      }),
    [ms, what] as const,
  );
}

/**
 * WCAG 2.2 AA checks with axe-core: no serious or critical violation is accepted. Nor is anything the app's
 * CSP blocked on this page so far: a blocked script, image or request is a broken screen for the user.
 */
export async function expectAccessible(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []),
  ).toEqual([]);
  // Judge the screen at rest: a toast half-way through fading in or out (or sliding behind a newer one) has text
  // at partial opacity, which axe rightly measures as low contrast but nobody reads.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
          ),
      null,
      { timeout: 3000 },
    )
    .catch(() => {});
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
  // Joins and 'Subscribed' answers in the order they crossed the socket, per channel topic. realtime-js sends
  // a channel's join again after a timeout, and only channels with postgres_changes bindings get the answer.
  const events: Array<{ topic: string; kind: 'join' | 'subscribed' }> = [];
  const parse = (payload: string | Buffer) => {
    try {
      const frame: unknown = JSON.parse(String(payload));
      if (Array.isArray(frame)) return { topic: String(frame[2]), event: String(frame[3]), payload: frame[4] };
      const { topic, event, payload: body } = frame as { topic: string; event: string; payload: unknown };
      return { topic, event, payload: body };
    } catch {
      return null;
    }
  };
  page.on('websocket', (socket) => {
    if (!socket.url().includes('/realtime/v1/websocket')) return;
    socket.on('framesent', (frame) => {
      const message = parse(frame.payload);
      const config = (message?.payload as { config?: { postgres_changes?: unknown[] } } | undefined)?.config;
      if (message?.event === 'phx_join' && (config?.postgres_changes?.length ?? 0) > 0) {
        events.push({ topic: message.topic, kind: 'join' });
      }
    });
    socket.on('framereceived', (frame) => {
      received.push(String(frame.payload));
      const message = parse(frame.payload);
      if (message?.event === 'system' && JSON.stringify(message.payload).includes('Subscribed to PostgreSQL')) {
        events.push({ topic: message.topic, kind: 'subscribed' });
      }
    });
  });
  /** Every channel that asked for database changes has been answered 'Subscribed' since its latest join. */
  const allSubscribed = () => {
    const topics = new Set(events.filter((event) => event.kind === 'join').map((event) => event.topic));
    if (topics.size === 0) return false;
    return [...topics].every((topic) => {
      const lastJoin = events.findLastIndex((event) => event.topic === topic && event.kind === 'join');
      const lastAnswer = events.findLastIndex((event) => event.topic === topic && event.kind === 'subscribed');
      return lastAnswer > lastJoin;
    });
  };
  return {
    /**
     * Resolves once every channel the page joined for database changes is subscribed (the server answers after
     * it has set up the change feed, which on a loaded machine takes seconds, not poll's default 1 s).
     */
    subscribed: () => expect.poll(allSubscribed, { timeout: 20_000 }).toBe(true),
    /** Postgres change frames whose text contains `text`. */
    changesMentioning: (text: string) =>
      received.filter((frame) => frame.includes('"postgres_changes"') && frame.includes(text)),
  };
}

/**
 * The page's requests, counted from now: `quiet()` resolves once none is in flight and none has started or
 * ended for half a second, Playwright's own measure of an idle network, usable again after each action.
 */
export function recordRequests(page: Page) {
  // Requests that started before this call are not counted: their ends would unbalance a plain counter.
  const inFlight = new Set<Request>();
  let lastActivity = Date.now();
  page.on('request', (request) => {
    inFlight.add(request);
    lastActivity = Date.now();
  });
  const ended = (request: Request) => {
    if (inFlight.delete(request)) lastActivity = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    quiet: () =>
      expect.poll(() => inFlight.size === 0 && Date.now() - lastActivity >= 500, { timeout: 30_000 }).toBe(true),
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
