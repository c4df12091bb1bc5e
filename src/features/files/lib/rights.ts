import type { Database } from '../../../types/database.ts';

export type FileLicense = Database['public']['Enums']['file_license'];
export type FileRelease = Database['public']['Enums']['file_release'];

/** The licence choices of the 'Derechos' section, in the order a person thinks of them. */
export const LICENSE_LABELS: Record<FileLicense, string> = {
  own: 'Propia',
  author_ceded: 'Cedida por el autor',
  stock: 'Banco de imágenes',
  agency: 'Agencia',
  unknown: 'Desconocida',
};

export const RELEASE_LABELS: Record<FileRelease, string> = {
  yes: 'Sí',
  no: 'No',
  not_applicable: 'No aplica',
};

/** The hotel group's time zone: rights expire at the end of their last day there, wherever the reader is. */
const MADRID_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today's date in Madrid as `yyyy-mm-dd`, the form Postgres gives a `date` column in. */
export const madridToday = (now: Date = new Date()) => MADRID_DAY.format(now);

/** `yyyy-mm-dd` plus a number of days (calendar arithmetic in UTC, so no daylight-saving step). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** How many days ahead 'Caducan pronto' looks, the same window as the admin's count and the filter. */
export const EXPIRING_WITHIN_DAYS = 30;

/**
 * Whether a file's rights have run out ('expired': its last day was before today) or run out soon (the last
 * day is today or one of the next 29 days, as the database's count and filter say). A file may still be
 * used on its last day.
 */
export function rightsState(expireOn: string | null, today: string = madridToday()): 'expired' | 'expiring' | null {
  if (!expireOn) return null;
  if (expireOn < today) return 'expired';
  return expireOn < addDays(today, EXPIRING_WITHIN_DAYS) ? 'expiring' : null;
}

/** A `yyyy-mm-dd` day as the app writes dates: dd/mm/yyyy. */
export const formatDay = (day: string) => day.split('-').reverse().join('/');
