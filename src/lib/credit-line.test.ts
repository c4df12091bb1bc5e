import { describe, expect, it } from 'vitest';
import { creditLine } from './credit-line.ts';

describe('creditLine', () => {
  it('says author, credit and copyright once each, in that order, and nothing when none is known', () => {
    expect(creditLine({ creator: 'Ana Ruiz', credit: 'Agencia Sol', copyright: '© 2026 Hoteles Sol' })).toBe(
      'Ana Ruiz · Agencia Sol · © 2026 Hoteles Sol',
    );
    expect(creditLine({ creator: 'José Ñúñez', credit: 'josé ñúñez ', copyright: '' })).toBe('José Ñúñez');
    expect(creditLine({ creator: ' ', credit: '', copyright: '' })).toBe('');
  });
});
