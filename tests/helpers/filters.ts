import type { Page } from 'playwright-core';

/** The files screen's filter bar: a chip per filter, each opening a menu of choices. */
export const filterBar = (page: Page) => page.getByRole('search', { name: 'Filtros' });

/** The chip of one filter, by its label ('Tipo', 'Estado', 'Orden', …), whatever it reads now. */
export const filterChip = (page: Page, label: string) =>
  filterBar(page).getByRole('button', { name: new RegExp(`^${label}\\b`) });

/** Opens a filter's chip and picks one of its choices ('Imágenes', 'Todos', 'Más grandes primero', …). */
export async function chooseFilter(page: Page, label: string, choice: string): Promise<void> {
  await filterChip(page, label).click();
  await page.getByRole('menuitemradio', { name: choice, exact: true }).click();
}

/** Opens the Etiqueta chip and picks a tag by name (or 'Cualquier etiqueta'). */
export async function chooseTag(page: Page, name: string): Promise<void> {
  await filterChip(page, 'Etiqueta').click();
  await page.getByRole('option', { name, exact: true }).click();
}
