import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs, viewports } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { nthMailTo, verifyLinkIn } from '../helpers/mail.ts';

/**
 * Password recovery and invitations in the app: from the sign-in screen to the files screen with
 * the link read from the local mail catcher, a used link refused in Spanish, and an admin's invitation
 * accepted by the invited person. Only accounts this file creates are used.
 */
let browser: Browser;
let service: SupabaseClient;
const created: string[] = [];

async function uploaderAccount(): Promise<string> {
  const email = `olvido-${crypto.randomUUID().slice(0, 8)}@mediateca.local`;
  const { data, error } = await service.auth.admin.createUser({
    email,
    password: 'clave-olvidada-1',
    email_confirm: true,
  });
  if (error) throw error;
  created.push(data.user.id);
  const staff = await service.from('staff').insert({ user_id: data.user.id, email, role: 'UPLOADER' });
  if (staff.error) throw staff.error;
  return email;
}

/** A password field by its label (the screen's heading says 'Nueva contraseña' too). */
const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

async function freshPage(viewport: keyof typeof viewports): Promise<Page> {
  const context = await browser.newContext({ viewport: viewports[viewport] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  return page;
}

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const id of created) await service.auth.admin.deleteUser(id);
  await browser?.close();
});

describe('¿Has olvidado tu contraseña?', () => {
  it('goes from the sign-in screen to the files screen through the mailed link', async () => {
    const email = await uploaderAccount();
    const page = await freshPage('desktop');
    await page.goto(appUrl('/login'));
    await page.getByRole('link', { name: '¿Has olvidado tu contraseña?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('heading', { name: '¿Has olvidado tu contraseña?' }).waitFor();
    await page.getByRole('button', { name: 'Enviar enlace' }).click();
    await page.getByRole('alert').filter({ hasText: 'Todos los campos son obligatorios' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-forgot-password-desktop');

    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('button', { name: 'Enviar enlace' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Te hemos enviado un correo a ${email}` })
      .waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-forgot-password-sent-desktop');

    const link = verifyLinkIn(await nthMailTo(email, 1));
    await page.goto(link);
    await page.waitForURL('**/reset-password');
    await page.getByRole('heading', { name: 'Nueva contraseña' }).waitFor();
    await field(page, 'Nueva contraseña').waitFor();
    // The tokens of the link do not stay in the address bar.
    expect(new URL(page.url()).hash).toBe('');
    await page.getByRole('button', { name: 'Guardar y entrar' }).click();
    await page.getByRole('alert').filter({ hasText: 'Todos los campos son obligatorios' }).waitFor();
    await field(page, 'Nueva contraseña').fill('recuperada-22');
    await field(page, 'Repite la contraseña').fill('recuperada-23');
    await page.getByRole('button', { name: 'Guardar y entrar' }).click();
    await page.getByRole('alert').filter({ hasText: 'Las dos contraseñas no coinciden.' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-reset-password-desktop');

    await field(page, 'Repite la contraseña').fill('recuperada-22');
    await page.getByRole('button', { name: 'Guardar y entrar' }).click();
    await page.waitForURL('**/private/files');
    await page.getByText('Contraseña guardada').waitFor();
    await page.getByTestId('files-count').waitFor();

    // The new password is the one that signs in now.
    const old = await client('anon').auth.signInWithPassword({ email, password: 'clave-olvidada-1' });
    expect(old.error?.code).toBe('invalid_credentials');
    const fresh = await client('anon').auth.signInWithPassword({ email, password: 'recuperada-22' });
    expect(fresh.error).toBeNull();

    // The same link again, in another browser: refused in Spanish, with a way to ask for another.
    const again = await freshPage('phone');
    await again.goto(link);
    await again.waitForURL('**/reset-password');
    await again.getByText('El enlace ha caducado o ya se ha usado.').waitFor();
    await again.getByRole('link', { name: 'Pedir otro enlace' }).waitFor();
    await expectAccessible(again);
    await screenshot(again, 'account-reset-password-used-phone');
  });

  it('fits a phone', async () => {
    const email = await uploaderAccount();
    const page = await freshPage('phone');
    await page.goto(appUrl('/forgot-password'));
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('button', { name: 'Enviar enlace' }).click();
    await page.getByRole('status').waitFor();
    await screenshot(page, 'account-forgot-password-sent-phone');
    await page.goto(verifyLinkIn(await nthMailTo(email, 1)));
    await field(page, 'Nueva contraseña').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-reset-password-phone');
  });
});

describe('Nuevo usuario → Enviar invitación', () => {
  it('mails an invitation whose link lets the person choose a password and sign in', async () => {
    const email = `invitada-${crypto.randomUUID().slice(0, 8)}@mediateca.local`;
    const { page: admin } = await signedInAs(browser, 'ADMIN', { landing: '/private/users/new-user' });
    await admin.waitForURL('**/private/users/new-user');
    expect(await admin.getByLabel('Enviar invitación').isChecked()).toBe(true);
    await admin.getByLabel('Correo electrónico').fill(email);
    await admin.getByLabel('Rol').selectOption('UPLOADER');
    await expectAccessible(admin);
    await screenshot(admin, 'users-new-user-invite-desktop');
    await admin.getByRole('button', { name: 'Enviar invitación' }).click();
    await admin.waitForURL('**/private/users');
    await admin.getByText(`Invitación enviada a ${email}`).waitFor();
    const { data: staff } = await service.from('staff').select('user_id, role').eq('email', email);
    expect(staff).toEqual([{ user_id: expect.any(String), role: 'UPLOADER' }]);
    created.push(staff![0]!.user_id);

    const mail = await nthMailTo(email, 1);
    expect(mail.subject).toBe('Te han invitado a Mediateca');
    const page = await freshPage('phone');
    await page.goto(verifyLinkIn(mail));
    await page.getByRole('heading', { name: 'Bienvenido a la Mediateca' }).waitFor();
    await field(page, 'Nueva contraseña').fill('mi-primera-clave');
    await field(page, 'Repite la contraseña').fill('mi-primera-clave');
    await expectAccessible(page);
    await screenshot(page, 'account-invitation-phone');
    await page.getByRole('button', { name: 'Guardar y entrar' }).click();
    await page.waitForURL('**/private/files');
    const signIn = await client('anon').auth.signInWithPassword({ email, password: 'mi-primera-clave' });
    expect(signIn.error).toBeNull();
  });
});
