import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { appUrl, expectAccessible, launchBrowser, signedInAs } from '../helpers/browser.ts';
import { signedInSeed } from '../helpers/clients.ts';

/**
 * The served build carries the production security headers (every e2e test runs under them, and
 * expectAccessible fails on anything the CSP blocked), and what users upload never runs script when opened.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("the app's security headers", () => {
  it('forbid inline and foreign scripts and framing, and limit the referrer', async () => {
    const response = await fetch(appUrl('/private/files'));
    const directives = Object.fromEntries(
      (response.headers.get('content-security-policy') ?? '').split(';').map((directive) => {
        const [name, ...values] = directive.trim().split(/\s+/);
        return [name, values];
      }),
    );
    // WebAssembly may be compiled (the upload screen's SHA-256), JavaScript may not be eval'd.
    expect(directives['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keep the app out of frames on other sites', async () => {
    const page = await browser.newPage();
    await page.setContent(`<iframe title="app" src="${appUrl('/login')}" width="800" height="600"></iframe>`);
    // The browser refuses the framed document and shows its error page instead of the sign-in form.
    await expect
      .poll(
        () =>
          page
            .frames()
            .find((f) => f !== page.mainFrame())
            ?.url() ?? '',
      )
      .toMatch(/^chrome-error:/);
    expect(await page.frameLocator('iframe').getByRole('button', { name: 'Entrar' }).count()).toBe(0);
    await page.close();
  });

  it('block nothing the app itself needs on the files and detail screens', async () => {
    const { context, page } = await signedInAs(browser, 'ADMIN');
    await page.locator('.file-card img').first().waitFor();
    await expectAccessible(page);
    await page.locator('.file-card-link').first().click();
    await page.getByLabel('Título', { exact: true }).waitFor();
    await expectAccessible(page);
    await context.close();
  });
});

describe('uploaded files opened in the browser', () => {
  const marker = `pwned-${crypto.randomUUID().slice(0, 8)}`;
  const script = `<script>document.title = '${marker}'</script>`;

  async function openUploaded(extension: string, contentType: string, body: string) {
    const uploader = await signedInSeed('UPLOADER');
    const objectPath = `${crypto.randomUUID()}/${crypto.randomUUID()}.${extension}`;
    expect((await uploader.storage.from('media').upload(objectPath, body, { contentType })).error).toBeNull();
    const signed = await uploader.storage.from('media').createSignedUrl(objectPath, 60);
    const page = await browser.newPage();
    await page.goto(signed.data!.signedUrl);
    return page;
  }

  it('show an HTML page as its source text, without running it', async () => {
    const page = await openUploaded('html', 'text/html', `<html><body>${script}<p>Hola</p></body></html>`);
    expect(await page.title()).not.toBe(marker);
    expect(await page.locator('body').innerText()).toContain('<script>');
    await page.close();
  });

  it('show an SVG without running its script', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">${script.replace(
      '<script>',
      '<script type="text/javascript">',
    )}<rect width="20" height="20" fill="#0084D8"/></svg>`;
    const page = await openUploaded('svg', 'image/svg+xml', svg);
    expect(await page.evaluate(() => document.title)).not.toBe(marker);
    expect(await page.locator('rect').count()).toBe(1);
    await page.close();
  });

  it('never render a page that claims to be a JPEG', async () => {
    const page = await openUploaded('jpg', 'image/jpeg', `<html><body>${script}</body></html>`);
    expect(await page.evaluate(() => document.title)).not.toBe(marker);
    await page.close();
  });
});
