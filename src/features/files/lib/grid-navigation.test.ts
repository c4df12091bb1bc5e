import { describe, expect, it } from 'vitest';
import { cardAfterArrow } from './grid-navigation.ts';
import type { GridRow } from './justified-rows.ts';

const box = (index: number, left: number, width: number) => ({ index, left, width, height: 100 });

// Two cards, a month heading, then three cards under them.
const rows: GridRow[] = [
  { height: 148, boxes: [box(0, 0, 300), box(1, 312, 300)] },
  { height: 44, boxes: [], heading: 'noviembre de 2026' },
  { height: 148, boxes: [box(2, 0, 200), box(3, 212, 200), box(4, 424, 200)] },
];

describe('cardAfterArrow', () => {
  it('goes through the list in order with Left and Right, stopping at its ends', () => {
    expect(cardAfterArrow(rows, 0, 1, 5, 'ArrowRight')).toBe(2);
    expect(cardAfterArrow(rows, 2, 4, 5, 'ArrowRight')).toBe(4);
    expect(cardAfterArrow(rows, 0, 0, 5, 'ArrowLeft')).toBe(0);
  });

  it('lands Up and Down on the nearest card of the next row with cards, over month headings', () => {
    expect(cardAfterArrow(rows, 0, 1, 5, 'ArrowDown')).toBe(4);
    expect(cardAfterArrow(rows, 2, 2, 5, 'ArrowUp')).toBe(0);
    expect(cardAfterArrow(rows, 0, 0, 5, 'ArrowUp')).toBeNull();
    expect(cardAfterArrow(rows, 2, 4, 5, 'ArrowDown')).toBeNull();
  });

  it('ignores other keys', () => {
    expect(cardAfterArrow(rows, 0, 0, 5, 'Enter')).toBeNull();
  });
});
