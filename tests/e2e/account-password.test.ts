import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import { appUrl, expectAccessible, launchBrowser, screenshot, signIn, viewports } from '../helpers/browser.ts';
import { adminDb, client } from '../helpers/clients.ts';
import { codeIn, mailsTo, nthMailTo } from '../helpers/mail.ts';

/**
 * 'Cambiar contraseña' in Mi cuenta: the account's password rules with Spanish messages, the current password
 * checked by Auth (a wrong one changes nothing), a change saved at once in a new session, and, for a session
 * older than a day (secure password change), the code Auth mails asked for and checked before the change.
 * Only accounts this file creates are used.
 */
let browser: Browser;
let service: SupabaseClient;
const created: string[] = [];

async function uploaderAccount(password: string): Promise<string> {
  const email = `clave-${crypto.randomUUID().slice(0, 8)}@mediateca.local`;
  const { data, error } = await service.auth.admin.createUser({ email, password, email_confirm: true });
  if (error) throw error;
  created.push(data.user.id);
  const staff = await service.from('staff').insert({ user_id: data.user.id, email, role: 'UPLOADER' });
  if (staff.error) throw staff.error;
  return email;
}

async function accountPage(email: string, password: string, viewport: keyof typeof viewports): Promise<Page> {
  const context = await browser.newContext({ locale: 'es-ES', viewport: viewports[viewport] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  await page.goto(appUrl('/login?redirect=%2Fprivate%2Faccount'));
  await signIn(page, email, password);
  await page.waitForURL('**/private/account');
  await page.getByRole('heading', { name: 'Cambiar contraseña' }).waitFor();
  return page;
}

const signsInWith = async (email: string, password: string) =>
  (await client('anon').auth.signInWithPassword({ email, password })).error === null;

const message = (page: Page) => page.locator('#password-message');

async function fillPasswords(page: Page, current: string, password: string, repeat = password) {
  await page.getByLabel('Contraseña actual').fill(current);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(password);
  await page.getByLabel('Repite la nueva contraseña').fill(repeat);
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
}

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const id of created) await service.auth.admin.deleteUser(id);
  await browser?.close();
});

describe('Cambiar contraseña', () => {
  it('checks the rules in Spanish, then saves the new password in a new session', async () => {
    const email = await uploaderAccount('primera-clave-1');
    const page = await accountPage(email, 'primera-clave-1', 'desktop');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await expect.poll(() => message(page).textContent()).toBe('Todos los campos son obligatorios');
    await fillPasswords(page, 'primera-clave-1', 'corta');
    await expect.poll(() => message(page).textContent()).toBe('La contraseña debe tener al menos 6 caracteres.');
    await fillPasswords(page, 'primera-clave-1', 'segunda-clave-2', 'otra-cosa-2');
    await expect.poll(() => message(page).textContent()).toBe('Las dos contraseñas no coinciden.');
    await expectAccessible(page);
    await screenshot(page, 'account-password-desktop');
    await fillPasswords(page, 'primera-clave-1', 'primera-clave-1');
    await expect.poll(() => message(page).textContent()).toBe('La nueva contraseña debe ser distinta de la anterior.');

    await fillPasswords(page, 'primera-clave-1', 'segunda-clave-2');
    await page.getByText('Contraseña cambiada').waitFor();
    expect(await page.getByLabel('Nueva contraseña', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Contraseña actual').inputValue()).toBe('');
    expect(await signsInWith(email, 'segunda-clave-2')).toBe(true);
    expect(await signsInWith(email, 'primera-clave-1')).toBe(false);
    await page.context().close();
  });

  for (const viewport of ['desktop', 'phone'] as const) {
    it(`refuses a wrong current password in Spanish, checked by Auth, and changes nothing (${viewport})`, async () => {
      const email = await uploaderAccount('actual-clave-1');
      const page = await accountPage(email, 'actual-clave-1', viewport);
      await fillPasswords(page, 'no-es-la-mia', 'otra-clave-2');
      await expect.poll(() => message(page).textContent()).toBe('La contraseña actual no es correcta.');
      expect(await page.getByLabel('Contraseña actual').getAttribute('aria-invalid')).toBe('true');
      expect(await signsInWith(email, 'actual-clave-1')).toBe(true);
      expect(await signsInWith(email, 'otra-clave-2')).toBe(false);
      await expectAccessible(page);
      await screenshot(page, `account-password-wrong-current-${viewport}`);

      await page.context().close();
    });
  }

  it('asks for the mailed code when the session is older than a day, and refuses a wrong one', async () => {
    const email = await uploaderAccount('vieja-clave-1');
    const page = await accountPage(email, 'vieja-clave-1', 'phone');
    const db = await adminDb();
    try {
      await db.query(
        `update auth.sessions set created_at = now() - interval '2 days'
          where user_id = (select id from auth.users where email = $1)`,
        [email],
      );
    } finally {
      await db.end();
    }
    const mailsBefore = (await mailsTo(email)).length;
    await fillPasswords(page, 'vieja-clave-1', 'nueva-clave-2');
    await page
      .getByRole('status')
      .filter({ hasText: `te hemos enviado un código a ${email}` })
      .waitFor();
    const code = codeIn(await nthMailTo(email, mailsBefore + 1));
    expect(await signsInWith(email, 'nueva-clave-2')).toBe(false);

    const codeField = page.getByLabel('Código de verificación');
    await codeField.fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await expect
      .poll(() => message(page).textContent())
      .toBe('El código no es correcto o ha caducado. Revisa el último correo o pide otro código.');
    await expectAccessible(page);
    await screenshot(page, 'account-password-code-phone');

    await codeField.fill(code);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByText('Contraseña cambiada').waitFor();
    expect(await signsInWith(email, 'nueva-clave-2')).toBe(true);
    await page.context().close();
  });
});
