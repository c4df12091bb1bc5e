import { describe, expect, it } from 'vitest';
import { parseArrayLiteral, toJsonValue, type TypeInfo } from './values.ts';

// A few rows of pg_type, with Postgres's real oids.
const rows: Array<[number, string, string, number, number]> = [
  [16, 'bool', 'b', 0, 0],
  [20, 'int8', 'b', 0, 0],
  [23, 'int4', 'b', 0, 0],
  [25, 'text', 'b', 0, 0],
  [114, 'json', 'b', 0, 0],
  [1700, 'numeric', 'b', 0, 0],
  [1114, 'timestamp', 'b', 0, 0],
  [1184, 'timestamptz', 'b', 0, 0],
  [3802, 'jsonb', 'b', 0, 0],
  [628, 'line', 'b', 0, 0],
  [1009, '_text', 'b', 0, 25],
  [1007, '_int4', 'b', 0, 23],
  [90001, 'positive_int', 'd', 23, 0],
];
const catalog = new Map<number, TypeInfo>(
  rows.map(([oid, name, kind, baseOid, elementOid]) => [oid, { oid, name, kind, baseOid, elementOid, delimiter: ',' }]),
);

describe('WAL values as to_jsonb gives them', () => {
  it('types numbers, booleans, json and domains', () => {
    expect(toJsonValue(catalog, 20, '5')).toBe(5);
    expect(toJsonValue(catalog, 1700, '12.50')).toBe(12.5);
    expect(toJsonValue(catalog, 1700, 'NaN')).toBe('NaN');
    expect(toJsonValue(catalog, 16, 't')).toBe(true);
    expect(toJsonValue(catalog, 16, 'f')).toBe(false);
    expect(toJsonValue(catalog, 3802, '{"a": [1, "x"]}')).toEqual({ a: [1, 'x'] });
    expect(toJsonValue(catalog, 114, '[1,2]')).toEqual([1, 2]);
    expect(toJsonValue(catalog, 90001, '7')).toBe(7);
    expect(toJsonValue(catalog, 25, 'hola')).toBe('hola');
    expect(toJsonValue(catalog, 628, '{1,-1,0}')).toBe('{1,-1,0}');
    expect(toJsonValue(catalog, 25, null)).toBeNull();
  });

  it('prints timestamps in ISO 8601 with microseconds and a full offset', () => {
    expect(toJsonValue(catalog, 1184, '2026-11-22 11:09:00.123456+00')).toBe('2026-11-22T11:09:00.123456+00:00');
    expect(toJsonValue(catalog, 1184, '2026-11-22 11:09:00+05:30')).toBe('2026-11-22T11:09:00+05:30');
    expect(toJsonValue(catalog, 1114, '2026-11-22 11:09:00.5')).toBe('2026-11-22T11:09:00.5');
    expect(toJsonValue(catalog, 1184, 'infinity')).toBe('infinity');
  });

  it('turns array literals into JSON arrays of typed elements', () => {
    expect(toJsonValue(catalog, 1009, '{a,"b c",NULL,"d\\"e"}')).toEqual(['a', 'b c', null, 'd"e']);
    expect(toJsonValue(catalog, 1007, '{{1,2},{3,4}}')).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(toJsonValue(catalog, 1007, '{}')).toEqual([]);
    expect(parseArrayLiteral('[0:1]={x,y}')).toEqual(['x', 'y']);
  });
});
