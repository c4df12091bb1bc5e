import { describe, expect, it } from 'vitest';
import { EXPIRY_CHOICES, expiryFrom } from './share-links.ts';

describe("'Caducidad' of a new link", () => {
  const now = new Date('2026-11-27T10:00:00Z');

  it('offers the choices in order, 30 días among them', () => {
    expect(EXPIRY_CHOICES.map((choice) => choice.label)).toEqual([
      '1 día',
      '7 días',
      '30 días',
      '90 días',
      'Sin caducidad',
      'Una fecha',
    ]);
  });

  it('counts days from now, none for Sin caducidad, and the end of a chosen day', () => {
    expect(expiryFrom('1', '', now)).toEqual(new Date('2026-11-28T10:00:00Z'));
    expect(expiryFrom('30', '', now)).toEqual(new Date('2026-12-27T10:00:00Z'));
    expect(expiryFrom('never', '', now)).toBeNull();
    const chosen = expiryFrom('date', '2027-01-15', now)!;
    expect([chosen.getFullYear(), chosen.getMonth(), chosen.getDate(), chosen.getHours()]).toEqual([2027, 0, 15, 23]);
  });
});
