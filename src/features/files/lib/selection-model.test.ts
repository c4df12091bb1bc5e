import { describe, expect, it } from 'vitest';
import {
  EVERYTHING_PICKED,
  NOTHING_PICKED,
  pickedTest,
  picksEverything,
  selectionOf,
  toggled,
  type Picked,
} from './selection-model.ts';

const loaded = ['a', 'b', 'c', 'd', 'e', 'f'];

/** Clicks in order, each `[index, shift]`, the anchor moving to every card clicked. */
function clicks(...steps: Array<[number, boolean]>): Picked {
  let picked = NOTHING_PICKED;
  let anchor: number | null = null;
  for (const [index, shift] of steps) {
    picked = toggled(picked, loaded, index, shift, anchor) ?? picked;
    anchor = index;
  }
  return picked;
}

const sorted = (picked: Picked) => [...picked.ids].sort();

describe('the selection model', () => {
  it('adds the range from the anchor forwards with shift', () => {
    expect(clicks([1, false], [4, true]).ids).toEqual(['b', 'c', 'd', 'e']);
  });

  it('adds the range from the anchor backwards with shift', () => {
    expect(sorted(clicks([4, false], [1, true]))).toEqual(['b', 'c', 'd', 'e']);
  });

  it('flips a card inside a range alone, and a new range starts from it', () => {
    const holed = clicks([1, false], [4, true], [2, false]);
    expect(sorted(holed)).toEqual(['b', 'd', 'e']);
    // The anchor is now the card taken out: shift back to the first card adds, it never takes away.
    expect(sorted(clicks([1, false], [4, true], [2, false], [0, true]))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('only adds with shift, even over cards already picked', () => {
    expect(sorted(clicks([2, false], [3, false], [1, true]))).toEqual(['b', 'c', 'd']);
  });

  it('flips the card alone on a shift-click with no card clicked before', () => {
    expect(clicks([3, true]).ids).toEqual(['d']);
  });

  it('changes nothing for a card that is not loaded', () => {
    expect(toggled(NOTHING_PICKED, loaded, 9, false, null)).toBeUndefined();
  });

  it("keeps the rest of the loaded files when one is taken out after 'Seleccionar todos'", () => {
    const picked = toggled(EVERYTHING_PICKED, loaded, 2, false, null)!;
    expect(picked).toEqual({ ids: ['a', 'b', 'd', 'e', 'f'], all: false });
    expect(selectionOf(picked, { type: 'image' })).toEqual({ kind: 'ids', ids: ['a', 'b', 'd', 'e', 'f'] });
    expect(pickedTest(picked)('c')).toBe(false);
    expect(pickedTest(picked)('f')).toBe(true);
  });

  it('sends the filters for everything, the ids for some and nothing once cleared', () => {
    expect(selectionOf(EVERYTHING_PICKED, { type: 'image' })).toEqual({ kind: 'filtered', filters: { type: 'image' } });
    expect(pickedTest(EVERYTHING_PICKED)('not-loaded')).toBe(true);
    expect(selectionOf(clicks([0, false]), {})).toEqual({ kind: 'ids', ids: ['a'] });
    expect(selectionOf(NOTHING_PICKED, {})).toBeNull();
    expect(pickedTest(NOTHING_PICKED)('a')).toBe(false);
  });

  it('counts a list as all picked by select-all, or once every one of its files is picked by hand', () => {
    expect(picksEverything(EVERYTHING_PICKED, 0)).toBe(true);
    expect(picksEverything(clicks([0, false], [5, true]), 6)).toBe(true);
    expect(picksEverything(clicks([0, false], [4, true]), 6)).toBe(false);
    expect(picksEverything(NOTHING_PICKED, 0)).toBe(false);
  });
});
