import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import { appUrl, expectAccessible, launchBrowser, screenshot, signedInAs } from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedFiles, seedTags, seedAccounts } from '../helpers/seed.ts';

/**
 * Etiquetas as an admin: create, edit and delete categories and tags through the screens, the
 * Spanish validation messages, the confirmation dialogs, the file counts (from the database, live, and as a
 * link to the filtered files screen). Every row this file changes is one it created.
 */

let browser: Browser;
let page: Page;
let service: SupabaseClient;
const suffix = crypto.randomUUID().slice(0, 8);
const categoryName = `Ubicación ${suffix}`;
const tagName = `Terraza ${suffix}`;

async function linksOfTag(tagId: string): Promise<number> {
  const { count, error } = await service
    .from('file_tags')
    .select('file_id', { count: 'exact', head: true })
    .eq('tag_id', tagId);
  expect(error).toBeNull();
  return count!;
}

const categoryCard = (name: string) =>
  page.locator('.tag-category').filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });

async function categoryRow(name: string) {
  const { data, error } = await service.from('tag_categories').select('*').eq('name_es', name);
  expect(error).toBeNull();
  return data![0];
}

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
  ({ page } = await signedInAs(browser, 'ADMIN', { landing: '/private/tags' }));
  await page.waitForURL('**/private/tags');
});

afterAll(async () => {
  await service.from('tag_categories').delete().like('name_es', `%${suffix}%`);
  await browser?.close();
});

describe('Etiquetas as ADMIN', () => {
  it('shows each seed tag with its file count from the database, and the count opens the filtered files', async () => {
    await page.goto(appUrl('/private/tags'));
    const expected = await linksOfTag(seedTags.piscina);
    expect(expected).toBeGreaterThan(0);
    const count = page.getByTestId(`tag-count-${seedTags.piscina}`);
    await expect.poll(() => count.textContent()).toBe(`${expected} ${expected === 1 ? 'archivo' : 'archivos'}`);
    await expectAccessible(page);
    await screenshot(page, 'tags-desktop');

    await count.click();
    await page.waitForURL(
      (url) => url.pathname === '/private/files' && url.searchParams.get('tag') === seedTags.piscina,
    );
    await expect.poll(async () => Number(await page.getByTestId('files-count').textContent())).toBe(expected);
  });

  it('refuses an empty or too long category with the Spanish messages, then creates it', async () => {
    await page.goto(appUrl('/private/tags'));
    await page.getByRole('link', { name: 'Nueva categoría' }).first().click();
    await page.waitForURL('**/private/tags/new-category');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('alert').filter({ hasText: 'Todos los campos son obligatorios' }).waitFor();

    await page.getByLabel('Nombre (español)').fill('x'.repeat(201));
    await page.getByLabel('Nombre (inglés)').fill('Location');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('alert').filter({ hasText: 'El campo no debe ser mayor a 200 caracteres.' }).waitFor();
    await screenshot(page, 'tags-new-category-invalid');
    expect(await categoryRow('x'.repeat(201))).toBeUndefined();

    await page.getByLabel('Nombre (español)').fill(categoryName);
    await page.getByLabel('Ocultar en B2C').check();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL('**/private/tags');
    await page.getByText('Categoría creada').waitFor();
    await categoryCard(categoryName).waitFor();
    const row = await categoryRow(categoryName);
    expect(row).toMatchObject({ name_en: 'Location', hide_b2c: true, hide_b2b: false });
  });

  it('edits the category', async () => {
    await page.goto(appUrl('/private/tags'));
    await page.getByRole('button', { name: `Acciones de la categoría ${categoryName}` }).click();
    await page.getByRole('menuitem', { name: 'Editar categoría' }).click();
    await page.waitForURL(`**/private/tags/edit-category/${(await categoryRow(categoryName)).id}`);
    await expect.poll(() => page.getByLabel('Nombre (inglés)').inputValue()).toBe('Location');
    await page.getByLabel('Nombre (inglés)').fill('Place');
    await page.getByLabel('Ocultar en B2B').check();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL('**/private/tags');
    await page.getByText('Categoría guardada').waitFor();
    expect(await categoryRow(categoryName)).toMatchObject({ name_en: 'Place', hide_b2c: true, hide_b2b: true });
    await categoryCard(categoryName).getByText('Oculta en B2B').waitFor();
  });

  it('adds a tag (validated), edits it, and its count follows another session tagging a file, live', async () => {
    const category = await categoryRow(categoryName);
    await page.goto(appUrl('/private/tags'));
    await page.getByRole('link', { name: `Añadir etiqueta a ${categoryName}` }).click();
    await page.waitForURL(`**/private/tags/edit-category/${category.id}/add-tag`);
    await page.getByLabel('Nombre (español)').fill(tagName);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('alert').filter({ hasText: 'Todos los campos son obligatorios' }).waitFor();
    expect(await page.getByLabel('Categoría').inputValue()).toBe(category.id);
    await page.getByLabel('Nombre (inglés)').fill('Terrace');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL('**/private/tags');
    await page.getByText('Etiqueta creada').waitFor();

    const { data: tags } = await service.from('tags').select('*').eq('name_es', tagName);
    const tag = tags![0]!;
    expect(tag).toMatchObject({ name_en: 'Terrace', category_id: category.id });
    const count = page.getByTestId(`tag-count-${tag.id}`);
    await expect.poll(() => count.textContent()).toBe('0 archivos');

    // Another admin tags a file while this screen stays open: the count changes without a reload.
    const other = await client('anon').auth.signInWithPassword({
      email: seedAccounts.ADMIN.email,
      password: seedAccounts.ADMIN.password,
    });
    expect(other.error).toBeNull();
    const otherAdmin = client('anon', other.data.session!.access_token);
    expect(
      (await otherAdmin.from('file_tags').insert({ file_id: seedFiles.piscina, tag_id: tag.id })).error,
    ).toBeNull();
    await expect.poll(() => count.textContent(), { timeout: 15_000 }).toBe('1 archivo');

    await page.getByRole('button', { name: `Acciones de ${tagName}` }).click();
    await page.getByRole('menuitem', { name: 'Editar' }).click();
    await page.waitForURL(`**/private/tags/edit-tag/${tag.id}`);
    await page.getByLabel('Nombre (inglés)').fill('Outdoor terrace');
    await screenshot(page, 'tags-edit-tag');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL('**/private/tags');
    await page.getByText('Etiqueta guardada').waitFor();
    expect((await service.from('tags').select('name_en').eq('id', tag.id).single()).data).toEqual({
      name_en: 'Outdoor terrace',
    });
  });

  it('deletes a tag only after the confirmation dialog', async () => {
    const { data } = await service.from('tags').select('id').eq('name_es', tagName).single();
    await page.goto(appUrl('/private/tags'));
    await page.getByRole('button', { name: `Acciones de ${tagName}` }).click();
    await page.getByRole('menuitem', { name: 'Borrar' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog
      .getByText(`¿Seguro que deseas borrar la etiqueta «${tagName}»? Esta acción no se puede deshacer.`)
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    expect((await service.from('tags').select('id').eq('id', data!.id)).data).toHaveLength(1);

    await page.getByRole('button', { name: `Acciones de ${tagName}` }).click();
    await page.getByRole('menuitem', { name: 'Borrar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.getByText('Etiqueta borrada').waitFor();
    await expect.poll(() => page.getByTestId(`tag-count-${data!.id}`).count()).toBe(0);
    expect((await service.from('tags').select('id').eq('id', data!.id)).data).toHaveLength(0);
    expect(await linksOfTag(data!.id)).toBe(0);
  });

  it('deletes a category with its tags after the confirmation dialog', async () => {
    const category = await categoryRow(categoryName);
    await service.from('tags').insert({ category_id: category.id, name_es: `Otra ${suffix}`, name_en: 'Other' });
    await page.goto(appUrl('/private/tags'));
    await categoryCard(categoryName).getByText(`Otra ${suffix}`).waitFor();
    await page.getByRole('button', { name: `Acciones de la categoría ${categoryName}` }).click();
    await page.getByRole('menuitem', { name: 'Borrar categoría' }).click();
    await page
      .getByRole('alertdialog')
      .getByText(
        `¿Seguro que deseas borrar la categoría «${categoryName}» y 1 etiqueta? Esta acción no se puede deshacer.`,
      )
      .waitFor();
    await expectAccessible(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.getByText('Categoría borrada').waitFor();
    await expect.poll(() => categoryCard(categoryName).count()).toBe(0);
    expect(await categoryRow(categoryName)).toBeUndefined();
    expect((await service.from('tags').select('id').eq('category_id', category.id)).data).toHaveLength(0);
  });

  it('fits a phone', async () => {
    const phone = await signedInAs(browser, 'ADMIN', { viewport: 'phone', landing: '/private/tags' });
    await phone.page.waitForURL('**/private/tags');
    await phone.page.getByTestId(`tag-count-${seedTags.piscina}`).waitFor();
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(phone.page);
    await screenshot(phone.page, 'tags-phone');
    await phone.page.goto(appUrl('/private/tags/new-category'));
    await phone.page.getByLabel('Nombre (español)').waitFor();
    await screenshot(phone.page, 'tags-new-category-phone');
    await phone.context.close();
  });
});
