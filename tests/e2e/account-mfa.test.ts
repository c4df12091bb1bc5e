import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';
import { appUrl, expectAccessible, launchBrowser, screenshot, signIn, viewports } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';

/**
 * Two-step sign-in in the app: 'Mi cuenta' enrols an authenticator app (the code is computed here
 * with otpauth, as the phone app would), the next sign-in asks for the code, and the app can be removed. Only
 * an account this file creates is used.
 */
let browser: Browser;
let service: SupabaseClient;
let userId = '';
const email = `doble-${crypto.randomUUID().slice(0, 8)}@mediateca.local`;
const password = 'dos-pasos-1';

const codeFor = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

async function freshPage(viewport: keyof typeof viewports): Promise<Page> {
  const context = await browser.newContext({ viewport: viewports[viewport] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  return page;
}

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
  const { data, error } = await service.auth.admin.createUser({ email, password, email_confirm: true });
  if (error) throw error;
  userId = data.user.id;
  const staff = await service.from('staff').insert({ user_id: userId, email, role: 'UPLOADER' });
  if (staff.error) throw staff.error;
});

afterAll(async () => {
  if (userId) await service.auth.admin.deleteUser(userId);
  await browser?.close();
});

describe('Mi cuenta → verificación en dos pasos', () => {
  let secret = '';

  it('enrols an authenticator app with its QR code and a first code', async () => {
    const page = await freshPage('desktop');
    await page.goto(appUrl('/login'));
    await signIn(page, email, password);
    await page.waitForURL('**/private/files');
    await page.getByRole('link', { name: 'Mi cuenta' }).click();
    await page.waitForURL('**/private/account');
    await page.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
    await page.getByRole('button', { name: 'Activar verificación en dos pasos' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-desktop');

    await page.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
    const qr = page.getByRole('img', { name: 'Código QR para añadir la Mediateca a tu aplicación' });
    await qr.waitFor();
    expect(await qr.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('alert').filter({ hasText: 'Todos los campos son obligatorios' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-enrol-desktop');

    await page.getByLabel('Código de verificación').fill(codeFor(secret));
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('Verificación en dos pasos activada').waitFor();
    await page.getByRole('status').filter({ hasText: 'Activada' }).waitFor();
    const { data } = await service.auth.admin.mfa.listFactors({ userId });
    expect(data?.factors.map((factor) => factor.status)).toEqual(['verified']);

    const phone = await freshPage('phone');
    await phone.goto(appUrl('/login?redirect=%2Fprivate%2Faccount'));
    await signIn(phone, email, password);
    await phone.getByLabel('Código de verificación').fill(codeFor(secret));
    await phone.getByRole('button', { name: 'Verificar' }).click();
    await phone.waitForURL('**/private/account');
    await phone.getByRole('status').filter({ hasText: 'Activada' }).waitFor();
    await expectAccessible(phone);
    await screenshot(phone, 'account-enrolled-phone');
  });

  it('asks for the code after the password, refuses a wrong one, and lets the right one in', async () => {
    const page = await freshPage('desktop');
    await page.goto(appUrl('/login'));
    await signIn(page, email, password);
    await page.getByRole('heading', { name: 'Código de verificación' }).waitFor();
    // Without the code the app stays closed.
    await page.goto(appUrl('/private/files'));
    await page.waitForURL('**/login?redirect=%2Fprivate%2Ffiles');
    await page.getByLabel('Código de verificación').waitFor();

    const right = codeFor(secret);
    await page.getByLabel('Código de verificación').fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.getByRole('alert').filter({ hasText: 'El código no es correcto.' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'login-code-step-desktop');

    await page.getByLabel('Código de verificación').fill(codeFor(secret));
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.waitForURL('**/private/files');
    await page.getByTestId('files-count').waitFor();

    const phone = await freshPage('phone');
    await phone.goto(appUrl('/login'));
    await signIn(phone, email, password);
    await phone.getByLabel('Código de verificación').waitFor();
    await expectAccessible(phone);
    await screenshot(phone, 'login-code-step-phone');
  });

  it('removes the authenticator after the confirmation, and the next sign-in needs the password only', async () => {
    const page = await freshPage('desktop');
    await page.goto(appUrl('/login?redirect=%2Fprivate%2Faccount'));
    await signIn(page, email, password);
    await page.getByLabel('Código de verificación').fill(codeFor(secret));
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.waitForURL('**/private/account');
    await page.getByRole('button', { name: 'Quitar la aplicación' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('¿Seguro que deseas quitar la aplicación de autenticación?').waitFor();
    await dialog.getByRole('button', { name: 'Quitar' }).click();
    await page.getByText('Verificación en dos pasos desactivada').waitFor();
    await page.getByRole('button', { name: 'Activar verificación en dos pasos' }).waitFor();

    const again = await freshPage('desktop');
    await again.goto(appUrl('/login'));
    await signIn(again, email, password);
    await again.waitForURL('**/private/files');
  });
});
