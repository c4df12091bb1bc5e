/**
 * Column values as Supabase Realtime puts them in `record` / `old_record`: Realtime casts each WAL value
 * with `to_jsonb(value::type)`, so numbers and booleans are JSON numbers and booleans, json/jsonb are
 * objects, arrays are arrays, and date/time types use the ISO 8601 forms `to_jsonb` prints (microseconds
 * kept, `T` separator, `+00:00` offsets). The replication connection prints values with TimeZone=UTC and
 * DateStyle=ISO, so the text form is converted here without another round trip to Postgres.
 */

export interface TypeInfo {
  oid: number;
  name: string;
  /** pg_type.typtype: b base, d domain, e enum, c composite, r range… */
  kind: string;
  /** For a domain, the type it constrains (resolved through nested domains). */
  baseOid: number;
  /** For an array type (typcategory A), the element type; 0 otherwise (also for point, line…). */
  elementOid: number;
  /** Element delimiter in the array literal (`,` for everything but box). */
  delimiter: string;
}

export type TypeCatalog = ReadonlyMap<number, TypeInfo>;

const NUMERIC_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric']);

/** The type that decides how values are encoded: domains behave as their base type. */
export function encodingType(catalog: TypeCatalog, oid: number): TypeInfo | undefined {
  let info = catalog.get(oid);
  for (let depth = 0; info && info.kind === 'd' && depth < 10; depth++) info = catalog.get(info.baseOid);
  return info;
}

/** `2026-11-22 11:09:00.123456+00` → `2026-11-22T11:09:00.123456+00:00`, as to_jsonb prints timestamptz. */
function isoTimestamp(text: string, withZone: boolean): string {
  const match = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2}(?::\d{2}){0,2})?( BC)?$/.exec(text);
  if (!match) return text; // infinity, -infinity
  const [, date, time, zone, era] = match;
  if (era) return text.replace(' ', 'T');
  if (!withZone || !zone) return `${date}T${time}`;
  return `${date}T${time}${zone.length === 3 ? `${zone}:00` : zone}`;
}

function numberOrText(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) ? value : text; // NaN, Infinity stay strings, as in to_jsonb
}

/** Parses a Postgres array literal (`{1,2}`, `{{a,"b c"},{NULL,d}}`, `[0:1]={x,y}`) into nested arrays. */
export function parseArrayLiteral(text: string, delimiter = ','): unknown[] {
  let position = text.startsWith('[') ? text.indexOf('=') + 1 : 0;
  const parseLevel = (): unknown[] => {
    const items: unknown[] = [];
    position++; // the opening brace
    while (position < text.length) {
      const char = text[position]!;
      if (char === '}') {
        position++;
        return items;
      }
      if (char === delimiter) {
        position++;
        continue;
      }
      if (char === '{') {
        items.push(parseLevel());
        continue;
      }
      if (char === '"') {
        let value = '';
        position++;
        while (position < text.length && text[position] !== '"') {
          if (text[position] === '\\') position++;
          value += text[position] ?? '';
          position++;
        }
        position++; // the closing quote
        items.push(value);
        continue;
      }
      let end = position;
      while (end < text.length && text[end] !== delimiter && text[end] !== '}') end++;
      const raw = text.slice(position, end).trim();
      items.push(raw.toUpperCase() === 'NULL' ? null : raw);
      position = end;
    }
    return items;
  };
  return parseLevel();
}

/** One value from the WAL's text form to what `to_jsonb(value::type)` would give. */
export function toJsonValue(catalog: TypeCatalog, typeOid: number, text: string | null | undefined): unknown {
  if (text === null || text === undefined) return text;
  const info = encodingType(catalog, typeOid);
  if (!info) return text;
  if (info.elementOid !== 0) {
    const convert = (item: unknown): unknown =>
      Array.isArray(item) ? item.map(convert) : toJsonValue(catalog, info.elementOid, item as string | null);
    return parseArrayLiteral(text, info.delimiter).map(convert);
  }
  switch (info.name) {
    case 'bool':
      return text === 't';
    case 'json':
    case 'jsonb':
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    case 'timestamptz':
      return isoTimestamp(text, true);
    case 'timestamp':
      return isoTimestamp(text, false);
    default:
      return NUMERIC_TYPES.has(info.name) ? numberOrText(text) : text;
  }
}
