import { describe, expect, it } from 'vitest';
import { formatDateTime, formatRelative, formatSize } from './format.ts';

describe('formatDateTime', () => {
  it('writes dd/mm/yyyy a las hh:mm:ss in local time with a 24-hour clock', () => {
    expect(formatDateTime(new Date(2026, 10, 2, 9, 5, 7))).toBe('02/11/2026 a las 09:05:07');
    expect(formatDateTime(new Date(2026, 0, 31, 23, 59, 59))).toBe('31/01/2026 a las 23:59:59');
  });
});

describe('formatRelative', () => {
  const now = new Date(2026, 10, 22, 12, 0, 0);
  it('says Justo ahora within a minute', () => {
    expect(formatRelative(new Date(2026, 10, 22, 11, 59, 30), now)).toBe('Justo ahora');
  });
  it('uses Hace for the past and Faltan for the future, with Spanish plurals', () => {
    expect(formatRelative(new Date(2026, 10, 22, 11, 59, 0), now)).toBe('Hace 1 minuto');
    expect(formatRelative(new Date(2026, 10, 22, 11, 15, 0), now)).toBe('Hace 45 minutos');
    expect(formatRelative(new Date(2026, 10, 22, 9, 0, 0), now)).toBe('Hace 3 horas');
    expect(formatRelative(new Date(2026, 10, 21, 12, 0, 0), now)).toBe('Hace 1 día');
    expect(formatRelative(new Date(2026, 10, 25, 12, 0, 0), now)).toBe('Faltan 3 días');
    expect(formatRelative(new Date(2026, 10, 22, 14, 0, 0), now)).toBe('Faltan 2 horas');
  });
});

describe('formatSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1,5 KB'],
    [5 * 1024 * 1024, '5 MB'],
    [1_000_000_000, '953,67 MB'],
    [3 * 1024 ** 3, '3 GB'],
  ])('formats %d bytes as %s', (bytes, expected) => {
    expect(formatSize(bytes)).toBe(expected);
  });
});
