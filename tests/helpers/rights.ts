import type { Browser } from 'playwright-core';
import { appUrl, signIn, viewports } from './browser.ts';
import { seedAccounts, type SeedRole } from './seed.ts';

const MADRID_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** A day relative to today in Madrid (the day rights expire by), as `yyyy-mm-dd`. */
export function madridDay(offsetDays = 0): string {
  const date = new Date(`${MADRID_DAY.format(new Date())}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offsetDays);
  return date.toISOString().slice(0, 10);
}

/** `yyyy-mm-dd` as the screens write a day: dd/mm/yyyy. */
export const shownDay = (day: string) => day.split('-').reverse().join('/');

/**
 * A signed-in browser set up as a person at the hotel group's: Spanish, on Madrid's clock, so the dates the
 * screens format (capture dates, month headings, the date picker's dd/mm/yyyy) are the ones they see.
 */
export async function signedInInMadrid(
  browser: Browser,
  role: SeedRole,
  landing: string,
  viewport: keyof typeof viewports = 'desktop',
) {
  const context = await browser.newContext({
    viewport: viewports[viewport],
    timezoneId: 'Europe/Madrid',
    locale: 'es-ES',
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  const account = seedAccounts[role];
  await page.goto(appUrl(`/login?redirect=${encodeURIComponent(landing)}`));
  await signIn(page, account.email, account.password);
  await page.waitForURL((url) => url.pathname !== '/login');
  return { context, page };
}
