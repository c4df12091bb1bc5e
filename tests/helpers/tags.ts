import type { Page } from 'playwright-core';

/**
 * Ticks (or unticks) tags in the tag picker of the file form or the bulk tag edit: 'Añadir
 * etiquetas' opens a searchable list grouped by category; each name is searched for and chosen.
 */
export async function pickTags(page: Page, names: string[]): Promise<void> {
  await page.getByRole('button', { name: 'Añadir etiquetas' }).click();
  const search = page.getByRole('combobox', { name: 'Buscar etiqueta' });
  for (const name of names) {
    await search.fill(name);
    await page.getByRole('option', { name, exact: true }).click();
  }
  await page.keyboard.press('Escape');
}
