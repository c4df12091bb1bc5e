import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useFileSelection } from './use-file-selection.ts';
import type { FileFilters } from '../api/file-filters.ts';

const ids = ['a', 'b', 'c', 'd', 'e'];

describe('useFileSelection', () => {
  it('toggles single files and adds a shift-click range', () => {
    const { result } = renderHook(() => useFileSelection({}, 'uploadedOn_desc', ids));
    act(() => result.current.toggle(1, false));
    act(() => result.current.toggle(3, true));
    expect(result.current.selection).toEqual({ kind: 'ids', ids: ['b', 'c', 'd'] });
    act(() => result.current.toggle(2, false));
    expect(result.current.selection).toEqual({ kind: 'ids', ids: ['b', 'd'] });
    expect(result.current.isSelected('c')).toBe(false);
  });

  it("selects the filter itself with 'Seleccionar todos', so the database expands it", () => {
    const filters: FileFilters = { type: 'image' };
    const { result } = renderHook(() => useFileSelection(filters, 'uploadedOn_desc', ids));
    act(() => result.current.selectAll());
    expect(result.current.selection).toEqual({ kind: 'filtered', filters });
    expect(result.current.isSelected('zzz')).toBe(true);
  });

  it('forgets the selection when the filters or the sort change', () => {
    const { result, rerender } = renderHook(
      ({ filters, sort }: { filters: FileFilters; sort: string }) => useFileSelection(filters, sort, ids),
      { initialProps: { filters: {}, sort: 'uploadedOn_desc' } },
    );
    act(() => result.current.toggle(0, false));
    expect(result.current.selection).not.toBeNull();
    rerender({ filters: { status: 'published' }, sort: 'uploadedOn_desc' });
    expect(result.current.selection).toBeNull();
    act(() => result.current.toggle(0, false));
    rerender({ filters: { status: 'published' }, sort: 'size_asc' });
    expect(result.current.selection).toBeNull();
  });

  it('keeps toggle and isSelected while nothing they depend on changes, so memoised cards skip a re-render', () => {
    const { result, rerender } = renderHook(
      ({ filters }: { filters: FileFilters }) => useFileSelection(filters, 'uploadedOn_desc', ids),
      { initialProps: { filters: { query: 'piscina' } } },
    );
    const { toggle, isSelected } = result.current;
    // The files screen renders again when the count arrives: equal filters, the same loaded ids.
    rerender({ filters: { query: 'piscina' } });
    expect(result.current.toggle).toBe(toggle);
    expect(result.current.isSelected).toBe(isSelected);
    act(() => result.current.toggle(0, false));
    expect(result.current.isSelected).not.toBe(isSelected);
    expect(result.current.isSelected('a')).toBe(true);
  });
});

describe('useFileSelection ranges and clearing', () => {
  it('extends a shift range backwards from the card clicked before', () => {
    const { result } = renderHook(() => useFileSelection({}, 'uploadedOn_desc', ids));
    act(() => result.current.toggle(3, false));
    act(() => result.current.toggle(1, true));
    expect(result.current.isSelected('b') && result.current.isSelected('c') && result.current.isSelected('d')).toBe(
      true,
    );
    expect(result.current.isSelected('e')).toBe(false);
  });

  it("takes one file out of 'Seleccionar todos' and keeps the other loaded files", () => {
    const { result } = renderHook(() => useFileSelection({ type: 'image' }, 'uploadedOn_desc', ids));
    act(() => result.current.selectAll());
    expect(result.current.everythingSelected(5)).toBe(true);
    act(() => result.current.toggle(0, false));
    expect(result.current.selection).toEqual({ kind: 'ids', ids: ['b', 'c', 'd', 'e'] });
    expect(result.current.everythingSelected(5)).toBe(false);
  });

  it('clears whatever is picked, one by one or all', () => {
    const { result } = renderHook(() => useFileSelection({}, 'uploadedOn_desc', ids));
    act(() => result.current.toggle(0, false));
    act(() => result.current.clear());
    expect(result.current.selection).toBeNull();
    act(() => result.current.selectAll());
    act(() => result.current.clear());
    expect(result.current.selection).toBeNull();
    expect(result.current.isSelected('a')).toBe(false);
  });
});
