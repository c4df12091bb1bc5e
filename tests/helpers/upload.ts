import type { Page } from 'playwright-core';

/** The upload screen's file input (hidden behind 'Seleccionar archivos'; Playwright sets files on it directly). */
export const FILE_INPUT = '.upload-page input.upload-file-input[type=file]';

/** One listed upload of the upload screen, by its (sanitised) file name. */
export const uploadItem = (page: Page, name: string) => page.locator('.upload-item', { hasText: name });

/** The toast the upload screen shows once a batch is over: '1 archivo subido', '3 archivos subidos'. */
export const uploadedToast = (page: Page, count: number) =>
  page
    .locator('[data-sonner-toast]')
    .filter({ hasText: count === 1 ? '1 archivo subido' : `${count} archivos subidos` });

/** Waits until the upload screen says `count` uploads went up (its list then clears). */
export async function waitForUploaded(page: Page, count: number, timeout = 30_000): Promise<void> {
  await uploadedToast(page, count).first().waitFor({ timeout });
}
