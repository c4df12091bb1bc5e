import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter } from './filters.ts';

describe('postgres_changes filters', () => {
  it('parses every operator and quoted in-lists', () => {
    expect(parseFilter('id=eq.5')).toEqual({ column: 'id', operator: 'eq', values: ['5'] });
    expect(parseFilter('name=in.(a,b,"c d","e,f")')).toEqual({
      column: 'name',
      operator: 'in',
      values: ['a', 'b', 'c d', 'e,f'],
    });
    expect(() => parseFilter('id=like.5')).toThrow(/not supported/);
    expect(() => parseFilter('nonsense')).toThrow();
  });

  it('compares numbers numerically and text as text', () => {
    expect(matchesFilter(parseFilter('size=gt.9'), { size: 10 })).toBe(true);
    expect(matchesFilter(parseFilter('size=lte.9'), { size: '10' })).toBe(false);
    expect(matchesFilter(parseFilter('name=neq.b'), { name: 'a' })).toBe(true);
    expect(matchesFilter(parseFilter('name=lt.b'), { name: 'a' })).toBe(true);
    expect(matchesFilter(parseFilter('done=eq.true'), { done: true })).toBe(true);
    expect(matchesFilter(parseFilter('id=in.(1,2)'), { id: 2 })).toBe(true);
    expect(matchesFilter(parseFilter('id=eq.1'), { other: 1 })).toBe(false);
    expect(matchesFilter(parseFilter('id=eq.1'), { id: null })).toBe(false);
  });
});
