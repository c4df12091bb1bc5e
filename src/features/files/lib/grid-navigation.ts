import type { GridRow } from './justified-rows.ts';

/** The next row with cards from `rowIndex` in `step` direction: month headings are skipped. */
function rowWithCards(rows: GridRow[], rowIndex: number, step: 1 | -1): GridRow | undefined {
  for (let index = rowIndex + step; index >= 0 && index < rows.length; index += step) {
    if (rows[index]!.boxes.length > 0) return rows[index];
  }
  return undefined;
}

/** The card of a row whose centre is nearest to a horizontal position: where Up/Down should land. */
function nearestInRow(row: GridRow, centre: number): number {
  let best = row.boxes[0]!;
  for (const box of row.boxes) {
    if (Math.abs(box.left + box.width / 2 - centre) < Math.abs(best.left + best.width / 2 - centre)) best = box;
  }
  return best.index;
}

/**
 * The card an arrow key moves to from the card at `index` (in row `rowIndex`) of `count` loaded files: Left and
 * Right go through the list in order, Up and Down to the nearest card of the row above or below. Null when the
 * key is not an arrow or there is nowhere to go.
 */
export function cardAfterArrow(
  rows: GridRow[],
  rowIndex: number,
  index: number,
  count: number,
  key: string,
): number | null {
  const box = rows[rowIndex]!.boxes.find((candidate) => candidate.index === index)!;
  const centre = box.left + box.width / 2;
  if (key === 'ArrowRight') return Math.min(count - 1, index + 1);
  if (key === 'ArrowLeft') return Math.max(0, index - 1);
  const below = rowWithCards(rows, rowIndex, 1);
  const above = rowWithCards(rows, rowIndex, -1);
  if (key === 'ArrowDown' && below) return nearestInRow(below, centre);
  if (key === 'ArrowUp' && above) return nearestInRow(above, centre);
  return null;
}
