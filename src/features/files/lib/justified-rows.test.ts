import { describe, expect, it } from 'vitest';
import { CAPTION_HEIGHT, HEADING_HEIGHT, groupedRows, justifiedRows, type LayoutFile } from './justified-rows.ts';

const image = (id: number, width: number, height: number): LayoutFile => ({
  id: String(id),
  width,
  height,
  is_image: true,
});
const document = (id: number): LayoutFile => ({ id: String(id), width: null, height: null, is_image: false });

describe('justifiedRows', () => {
  const files = [
    image(1, 4000, 3000),
    image(2, 3000, 4000),
    document(3),
    image(4, 6000, 1000),
    image(5, 1920, 1080),
    document(6),
    image(7, 800, 600),
    image(8, 1000, 1000),
    image(9, 1200, 800),
  ];

  it('places every file once, in order, and no two boxes of a row overlap or leave the container', () => {
    for (const width of [358, 800, 1392]) {
      const rows = justifiedRows(files, width);
      expect(rows.flatMap((row) => row.boxes.map((box) => box.index))).toEqual(files.map((_, index) => index));
      for (const row of rows) {
        row.boxes.forEach((box, position) => {
          expect(box.left + box.width).toBeLessThanOrEqual(width);
          const next = row.boxes[position + 1];
          if (next) expect(box.left + box.width).toBeLessThanOrEqual(next.left);
          // The row is tall enough for the picture and its caption.
          expect(row.height).toBeGreaterThanOrEqual(box.height + CAPTION_HEIGHT);
        });
      }
    }
  });

  it('fills the width of full rows (justified), and keeps a panorama from taking a whole row', () => {
    const rows = justifiedRows(files, 1392);
    const first = rows[0]!;
    const last = first.boxes[first.boxes.length - 1]!;
    expect(last.left + last.width).toBeGreaterThan(1392 - 4);
    const panorama = rows.flatMap((row) => row.boxes).find((box) => box.index === 3)!;
    expect(panorama.width / panorama.height).toBeLessThanOrEqual(2.01);
  });

  it('lays out nothing for no files or no width', () => {
    expect(justifiedRows([], 1000)).toEqual([]);
    expect(justifiedRows(files, 0)).toEqual([]);
  });
});

describe('groupedRows', () => {
  const dated = (id: number, month: string) => ({ ...image(id, 4000, 3000), month });
  const files = [
    dated(0, 'noviembre'),
    dated(1, 'noviembre'),
    dated(2, 'octubre'),
    dated(3, 'octubre'),
    dated(4, 'agosto'),
  ];

  it('starts each month with a heading row and never mixes two months in a row', () => {
    const rows = groupedRows(files, 800, (file) => file.month);
    expect(rows.filter((row) => row.heading).map((row) => row.heading)).toEqual(['noviembre', 'octubre', 'agosto']);
    expect(
      rows.filter((row) => row.heading).every((row) => row.height === HEADING_HEIGHT && row.boxes.length === 0),
    ).toBe(true);
    expect(rows.flatMap((row) => row.boxes.map((box) => box.index))).toEqual([0, 1, 2, 3, 4]);
    let month = '';
    for (const row of rows) {
      if (row.heading) month = row.heading;
      for (const box of row.boxes) expect(files[box.index]!.month).toBe(month);
    }
  });
});
