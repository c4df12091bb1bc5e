import { describe, expect, it } from 'vitest';
import { instantOf, matchesFilter, parseFilter } from './filters.ts';

const types: Record<string, string> = {
  id: 'int8',
  size: 'int4',
  name: 'text',
  done: 'bool',
  owner: 'uuid',
  created_at: 'timestamptz',
  day: 'date',
};
const typeOf = (column: string) => types[column];
const matches = (filter: string, values: Record<string, string | null>) =>
  matchesFilter(parseFilter(filter), values, typeOf);

describe('postgres_changes filters', () => {
  it('parses every operator, quoted values, in-lists, not. and AND lists', () => {
    expect(parseFilter('id=eq.5')).toEqual([{ column: 'id', operator: 'eq', negate: false, values: ['5'] }]);
    expect(parseFilter('name=in.(a,b,"c d","e,f")')).toEqual([
      { column: 'name', operator: 'in', negate: false, values: ['a', 'b', 'c d', 'e,f'] },
    ]);
    expect(parseFilter('name=eq."x,y",size=not.gt.3')).toEqual([
      { column: 'name', operator: 'eq', negate: false, values: ['x,y'] },
      { column: 'size', operator: 'gt', negate: true, values: ['3'] },
    ]);
    expect(parseFilter('  ')).toEqual([]);
    expect(() => parseFilter('id=foo.5')).toThrow('["foo", "5"]');
    expect(() => parseFilter('undefined')).toThrow('["undefined"]');
    expect(() => parseFilter('done=is.maybe')).toThrow(/is filter/);
  });

  it('compares as the column type: numbers numerically, text as text, booleans by truth', () => {
    expect(matches('size=gt.9', { size: '10' })).toBe(true);
    expect(matches('size=lte.9', { size: '10' })).toBe(false);
    expect(matches('name=gt.9', { name: '10' })).toBe(false); // text: '1' < '9'
    expect(matches('name=neq.b', { name: 'a' })).toBe(true);
    expect(matches('name=lt.b', { name: 'a' })).toBe(true);
    expect(matches('done=eq.true', { done: 't' })).toBe(true);
    expect(matches('done=eq.false', { done: 't' })).toBe(false);
    expect(matches('id=in.(1,2)', { id: '2' })).toBe(true);
    expect(matches('id=in.(1,2)', { id: '3' })).toBe(false);
  });

  it('compares uuids without case and timestamps by instant', () => {
    const owner = '8f0c8f7e-6a3b-4f7e-9b1a-2c3d4e5f6a7b';
    expect(matches(`owner=eq.${owner.toUpperCase()}`, { owner })).toBe(true);
    const createdAt = '2026-11-22 11:09:00.123456+00';
    expect(matches('created_at=eq.2026-11-22T12:09:00.123456+01:00', { created_at: createdAt })).toBe(true);
    expect(matches('created_at=gt.2026-11-22T11:09:00.123Z', { created_at: createdAt })).toBe(true);
    expect(matches('created_at=lt.2026-11-22', { created_at: createdAt })).toBe(false);
    expect(matches('day=gte.2026-11-01', { day: '2026-11-22' })).toBe(true);
    expect(instantOf('not a date')).toBeNull();
  });

  it('never matches NULL or absent columns except through is', () => {
    expect(matches('id=eq.1', { other: '1' })).toBe(false);
    expect(matches('id=eq.1', { id: null })).toBe(false);
    expect(matches('id=neq.1', { id: null })).toBe(false);
    expect(matches('id=not.eq.1', { id: null })).toBe(false);
    expect(matches('id=is.null', { id: null })).toBe(true);
    expect(matches('id=not.is.null', { id: null })).toBe(false);
    expect(matches('done=is.true', { done: 't' })).toBe(true);
  });

  it('supports like, ilike and AND of several conditions', () => {
    expect(matches('name=like.ab%', { name: 'abc' })).toBe(true);
    expect(matches('name=like.AB%', { name: 'abc' })).toBe(false);
    expect(matches('name=ilike.AB%', { name: 'abc' })).toBe(true);
    expect(matches('name=like.a_c', { name: 'abc' })).toBe(true);
    expect(matches('size=gt.1,size=lt.5', { size: '3' })).toBe(true);
    expect(matches('size=gt.1,size=lt.5', { size: '7' })).toBe(false);
  });
});
