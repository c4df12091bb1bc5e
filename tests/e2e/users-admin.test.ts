import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  appUrl,
  expectAccessible,
  launchBrowser,
  recordRealtimeFrames,
  screenshot,
  signedInAs,
  signIn,
  viewports,
} from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAcademyMembers, seedAccounts } from '../helpers/seed.ts';

/**
 * Usuarios as an admin: the list against the staff table, the new-user form (validation, the
 * function's Spanish error, creation then sign-in with the new account), password change then sign-in with
 * the new password, role change, and deletion after the confirmation dialog. Only accounts this file
 * creates are changed.
 */

let browser: Browser;
let page: Page;
let service: SupabaseClient;
const email = `recepcion-${crypto.randomUUID().slice(0, 8)}@mediateca.local`;

const row = (address: string) => page.getByTestId(`user-${address}`);

async function staffRow(address: string) {
  const { data, error } = await service.from('staff').select('user_id, role').eq('email', address);
  expect(error).toBeNull();
  return data![0];
}

/** Signs in on a fresh context and reports where the app landed (the files screen for library staff). */
async function signInAs(address: string, password: string): Promise<string> {
  const context = await browser.newContext({ viewport: viewports.desktop });
  const other = await context.newPage();
  await other.goto(appUrl('/login'));
  await signIn(other, address, password);
  await other.waitForURL((url) => url.pathname !== '/login');
  await other.getByTestId('files-count').waitFor();
  const landed = new URL(other.url()).pathname;
  await context.close();
  return landed;
}

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
  ({ page } = await signedInAs(browser, 'ADMIN', { landing: '/private/users' }));
  await page.waitForURL('**/private/users');
});

afterAll(async () => {
  const created = await staffRow(email);
  if (created) await service.auth.admin.deleteUser(created.user_id);
  await browser?.close();
});

describe('Usuarios as ADMIN', () => {
  it('lists every staff account sorted by e-mail with its role, and says the own account cannot be removed', async () => {
    const { data: staff } = await service.from('staff').select('email, role');
    await row(seedAccounts.UPLOADER.email).waitFor();
    const shown = page.locator('.user-row .user-email');
    await expect.poll(() => shown.count()).toBeGreaterThanOrEqual(staff!.length);
    const emails = (await shown.allTextContents()).map((text) => text.replace(' (tú)', ''));
    expect(emails).toEqual([...emails].sort((a, b) => a.localeCompare(b, 'es')));
    // Academy members have Auth accounts of their own, but they are not staff.
    for (const member of Object.values(seedAcademyMembers)) expect(emails).not.toContain(member.email);
    expect(await page.getByText('Sin rol').count()).toBe(0);
    for (const member of staff!) {
      expect(await page.getByLabel(`Rol de ${member.email}`).inputValue()).toBe(member.role);
    }
    const own = row(seedAccounts.ADMIN.email);
    await own.getByText('No puedes borrar ni cambiar el rol de tu propio usuario.').waitFor();
    await own.getByRole('button', { name: `Acciones de ${seedAccounts.ADMIN.email}` }).click();
    await page.getByRole('menuitem', { name: 'Cambiar contraseña' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Borrar' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await page.getByLabel(`Rol de ${seedAccounts.ADMIN.email}`).isDisabled()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'users-desktop');
  });

  it('validates the new-user form, prefills ?email=, and shows the function error in red with the form re-enabled', async () => {
    await page.goto(appUrl('/private/users/new-user'));
    // Typing a password is the second way; the first, an invitation, has its own test (account-recovery).
    await page.getByLabel('Escribir una contraseña').check();
    await page.getByText('después no se podrá volver a ver').waitFor();
    await page.getByRole('button', { name: 'Crear usuario' }).click();
    await page.getByRole('alert').filter({ hasText: 'Todos los campos son obligatorios' }).waitFor();
    await page.getByLabel('Correo electrónico').fill('no-es-un-correo');
    await page.getByLabel('Contraseña', { exact: true }).fill('secreta-123');
    await page.getByLabel('Rol').selectOption('UPLOADER');
    await page.getByRole('button', { name: 'Crear usuario' }).click();
    await page.getByRole('alert').filter({ hasText: 'El campo debe ser un correo electrónico válido.' }).waitFor();

    await page.goto(appUrl(`/private/users/new-user?email=${encodeURIComponent(seedAccounts.UPLOADER.email)}`));
    expect(await page.getByLabel('Correo electrónico').inputValue()).toBe(seedAccounts.UPLOADER.email);
    await page.getByLabel('Escribir una contraseña').check();
    await page.getByLabel('Contraseña', { exact: true }).fill('secreta-123');
    await page.getByLabel('Rol').selectOption('UPLOADER');
    await page.getByRole('button', { name: 'Crear usuario' }).click();
    const error = page.getByRole('alert').filter({ hasText: 'Ya existe un usuario con ese correo electrónico.' });
    await error.waitFor();
    // In red: the danger colour of the design tokens.
    const [shown, danger] = await error.evaluate((element) => {
      const probe = document.body.appendChild(document.createElement('span'));
      probe.style.color = 'var(--danger)';
      const colours = [getComputedStyle(element).color, getComputedStyle(probe).color];
      probe.remove();
      return colours;
    });
    expect(shown).toBe(danger);
    expect(await page.getByLabel('Correo electrónico').isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Crear usuario' }).isEnabled()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'users-new-user-error');
  });

  it('creates an account that can then sign in', async () => {
    await page.goto(appUrl('/private/users'));
    await page.getByRole('link', { name: 'Nuevo usuario' }).click();
    await page.waitForURL('**/private/users/new-user');
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Escribir una contraseña').check();
    await page.getByLabel('Contraseña', { exact: true }).fill('primera-clave-1');
    await page.getByLabel('Rol').selectOption('UPLOADER');
    await page.getByRole('button', { name: 'Crear usuario' }).click();
    await page.waitForURL('**/private/users');
    await page.getByText(`Usuario ${email} creado`).waitFor();
    await row(email).waitFor();
    expect((await staffRow(email))?.role).toBe('UPLOADER');
    expect(await signInAs(email, 'primera-clave-1')).toBe('/private/files');
  });

  it('changes the password, and the account signs in with the new one only', async () => {
    const { user_id: uid } = (await staffRow(email))!;
    await page.goto(appUrl('/private/users'));
    await page.getByRole('button', { name: `Acciones de ${email}` }).click();
    await page.getByRole('menuitem', { name: 'Cambiar contraseña' }).click();
    await page.waitForURL(`**/private/users/update-password/${uid}`);
    await page.getByTestId('password-user').filter({ hasText: email }).waitFor();
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByRole('alert').filter({ hasText: 'Todos los campos son obligatorios' }).waitFor();
    await page.getByLabel('Nueva contraseña').fill('corta');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByRole('alert').filter({ hasText: 'La contraseña debe tener al menos 6 caracteres.' }).waitFor();
    await page.getByLabel('Nueva contraseña').fill('segunda-clave-2');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.waitForURL('**/private/users');
    await page.getByText('Contraseña cambiada').waitFor();

    expect(await signInAs(email, 'segunda-clave-2')).toBe('/private/files');
    const old = await client('anon').auth.signInWithPassword({ email, password: 'primera-clave-1' });
    expect(old.error?.code).toBe('invalid_credentials');
  });

  it('changes a role from the list, and the open session of that person follows it live', async () => {
    const context = await browser.newContext({ viewport: viewports.desktop });
    const member = await context.newPage();
    const realtime = recordRealtimeFrames(member);
    await member.goto(appUrl('/login'));
    await signIn(member, email, 'segunda-clave-2');
    await member.waitForURL('**/private/files');
    await member.getByRole('link', { name: 'Archivos', exact: true }).waitFor();
    expect(await member.getByRole('link', { name: 'Usuarios', exact: true }).count()).toBe(0);
    await realtime.subscribed();

    await page.goto(appUrl('/private/users'));
    await page.getByLabel(`Rol de ${email}`).selectOption('ADMIN');
    await page.getByText('Rol cambiado a ADMIN').waitFor();
    await expect.poll(async () => (await staffRow(email))?.role).toBe('ADMIN');
    await member.getByRole('link', { name: 'Usuarios', exact: true }).waitFor({ timeout: 15_000 });

    await page.getByLabel(`Rol de ${email}`).selectOption('FRONT');
    await page.getByText('Rol cambiado a FRONT').waitFor();
    await expect.poll(async () => (await staffRow(email))?.role).toBe('FRONT');
    await member.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
    await context.close();
  });

  it('finds an account by e-mail with the search box', async () => {
    await page.goto(appUrl('/private/users'));
    await row(seedAccounts.UPLOADER.email).waitFor();
    await page.getByLabel('Buscar usuario').fill('uploader@');
    await expect.poll(() => page.locator('.user-row').count()).toBe(1);
    await row(seedAccounts.UPLOADER.email).waitFor();
    await page.getByLabel('Buscar usuario').fill('nadie-con-este-correo');
    await page.getByText('Ningún usuario coincide con «nadie-con-este-correo».').waitFor();
    await screenshot(page, 'users-search');
  });

  it('deletes an account only after the confirmation dialog', async () => {
    const { user_id: uid } = (await staffRow(email))!;
    await page.goto(appUrl('/private/users'));
    // Secondary actions sit in the row's menu; Borrar still asks first.
    await row(email)
      .getByRole('button', { name: `Acciones de ${email}` })
      .click();
    await page.getByRole('menuitem', { name: 'Borrar' }).click();
    await page
      .getByRole('alertdialog')
      .getByText(`¿Seguro que deseas borrar el usuario ${email}? Esta acción no se puede deshacer.`)
      .waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancelar' }).click();
    expect(await staffRow(email)).toBeDefined();
    await row(email)
      .getByRole('button', { name: `Acciones de ${email}` })
      .click();
    await page.getByRole('menuitem', { name: 'Borrar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.getByText(`Usuario ${email} borrado`).waitFor();
    await expect.poll(() => row(email).count()).toBe(0);
    expect(await staffRow(email)).toBeUndefined();
    expect((await service.auth.admin.getUserById(uid)).data.user).toBeNull();
  });

  it('fits a phone', async () => {
    const phone = await signedInAs(browser, 'ADMIN', { viewport: 'phone', landing: '/private/users' });
    await phone.page.waitForURL('**/private/users');
    await phone.page.getByTestId(`user-${seedAccounts.UPLOADER.email}`).waitFor();
    expect(
      await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await expectAccessible(phone.page);
    await screenshot(phone.page, 'users-phone');
    await phone.page.goto(appUrl('/private/users/new-user'));
    await phone.page.getByLabel('Rol').waitFor();
    await screenshot(phone.page, 'users-new-user-phone');
    await phone.context.close();
  });
});

describe('admin routes as UPLOADER', () => {
  it('refuses every Etiquetas, Usuarios and Operaciones route in Spanish, staying signed in (no sign-in loop)', async () => {
    const uploader = await signedInAs(browser, 'UPLOADER');
    const routes = [
      '/private/tags',
      '/private/tags/new-category',
      '/private/tags/edit-category/c0000000-0000-4000-8000-000000000001',
      '/private/tags/edit-category/c0000000-0000-4000-8000-000000000001/add-tag',
      '/private/tags/edit-tag/d0000000-0000-4000-8000-000000000001',
      '/private/users',
      '/private/users/new-user?email=x%40y.z',
      `/private/users/update-password/${seedAccounts.ADMIN.id}`,
      '/private/operations',
    ];
    for (const route of routes) {
      await uploader.page.goto(appUrl(route));
      await uploader.page.getByText('No tienes permiso para ver esta sección.').waitFor();
      expect(new URL(uploader.page.url()).pathname).toBe(route.split('?')[0]);
    }
    await uploader.context.close();
  });
});
