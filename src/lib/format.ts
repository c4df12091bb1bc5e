/**
 * The app's Spanish formats: dates `dd/mm/yyyy a las hh:mm:ss`, relative times ('Hace …', 'Faltan …',
 * 'Justo ahora'), and sizes in Bytes, KB, MB or GB. Built on Intl so locale rules stay correct.
 */

const dateParts = new Intl.DateTimeFormat('es-ES', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export function formatDateTime(value: Date | string | number): string {
  const parts = Object.fromEntries(dateParts.formatToParts(new Date(value)).map((p) => [p.type, p.value]));
  return `${parts.day}/${parts.month}/${parts.year} a las ${parts.hour}:${parts.minute}:${parts.second}`;
}

const plural = new Intl.PluralRules('es-ES');
const UNITS = [
  { seconds: 86_400, one: 'día', other: 'días' },
  { seconds: 3_600, one: 'hora', other: 'horas' },
  { seconds: 60, one: 'minuto', other: 'minutos' },
] as const;

export function formatRelative(value: Date | string | number, now: Date = new Date()): string {
  const diffSeconds = Math.round((new Date(value).getTime() - now.getTime()) / 1000);
  const distance = Math.abs(diffSeconds);
  const unit = UNITS.find((u) => distance >= u.seconds);
  if (!unit) return 'Justo ahora';
  const amount = Math.floor(distance / unit.seconds);
  const label = plural.select(amount) === 'one' ? unit.one : unit.other;
  return diffSeconds < 0 ? `Hace ${amount} ${label}` : `Faltan ${amount} ${label}`;
}

const sizeNumber = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2 });
const SIZE_UNITS = ['KB', 'MB', 'GB'] as const;

export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${sizeNumber.format(Math.max(0, bytes))} Bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${sizeNumber.format(value)} ${SIZE_UNITS[unit]}`;
}

const monthYear = new Intl.DateTimeFormat('es-ES', { month: 'long', year: 'numeric' });

/** A month as the files grid heads it: 'noviembre de 2026'. */
export function formatMonth(value: Date | string | number): string {
  return monthYear.format(new Date(value));
}
