/**
 * postgres_changes filters as realtime-js sends them: `column=op.value`. The Realtime the CLI pins
 * (v2.102.1) knows eq, neq, lt, lte, gt, gte and in (`in.(a,b,"c d")`); current hosted Realtime adds
 * like, ilike, is, a `not.` prefix and comma-separated AND of several filters, which realtime-js 2.109's
 * filter builder emits, so those are accepted too. Values are compared as the column's type, as Realtime
 * does in Postgres: numbers numerically, booleans by truth, date/time values by instant, uuids without
 * regard to case, everything else as text.
 */

export type Operator = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'like' | 'ilike' | 'is';

export interface Condition {
  column: string;
  operator: Operator;
  negate: boolean;
  values: string[];
}

/** Every condition must hold (AND). */
export type Filter = Condition[];

const OPERATORS = new Set<Operator>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'like', 'ilike', 'is']);

/** Splits on commas outside quotes and parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '\\') {
      current += char + (text[++i] ?? '');
      continue;
    }
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === '(') depth++;
    else if (!quoted && char === ')') depth--;
    if (char === ',' && !quoted && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

function unquote(text: string): string {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return text;
  return text.slice(1, -1).replace(/\\(.)/g, '$1');
}

function parseList(text: string): string[] {
  if (!text.startsWith('(') || !text.endsWith(')')) throw new Error(`"${text}" is not a list like (a,b)`);
  const values: string[] = [];
  let current = '';
  let quoted = false;
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '\\' && quoted) current += body[++i] ?? '';
    else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      values.push(current);
      current = '';
    } else current += char;
  }
  if (quoted) throw new Error('unterminated quote');
  values.push(current);
  if (values.length > 100) throw new Error('too many values for `in` filter. Maximum 100');
  return values;
}

function parseCondition(text: string): Condition {
  const match = /^([^=]+)=(not\.)?([a-z]+)\.(.*)$/s.exec(text.trim());
  if (!match) throw new Error(`["${text}"]`);
  const operator = match[3] as Operator;
  if (!OPERATORS.has(operator)) throw new Error(`["${operator}", "${match[4]}"]`);
  const raw = match[4]!;
  if (operator === 'is' && !['null', 'true', 'false', 'unknown'].includes(raw.toLowerCase())) {
    throw new Error('invalid value for is filter: must be null, true, false, or unknown');
  }
  const values = operator === 'in' ? parseList(raw) : [unquote(raw)];
  return { column: match[1]!, operator, negate: Boolean(match[2]), values };
}

/** Parses a filter string; throws with the reason Realtime would put after "Error parsing `filter` params: ". */
export function parseFilter(filter: string): Filter {
  const trimmed = filter.trim();
  if (!trimmed) return [];
  return splitTopLevel(trimmed).map(parseCondition);
}

export type ComparableKind = 'number' | 'boolean' | 'instant' | 'uuid' | 'text';

const NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);
const INSTANT_TYPES = new Set(['timestamptz', 'timestamp', 'date']);

export function comparableKind(typeName: string | undefined): ComparableKind {
  if (!typeName) return 'text';
  if (NUMBER_TYPES.has(typeName)) return 'number';
  if (typeName === 'bool') return 'boolean';
  if (INSTANT_TYPES.has(typeName)) return 'instant';
  if (typeName === 'uuid') return 'uuid';
  return 'text';
}

const TRUE_WORDS = new Set(['t', 'true', 'y', 'yes', 'on', '1']);

/** Microseconds since the epoch for `2026-11-22`, `2026-11-22 11:09:00.123456+00`, `…T…Z`; null if not a date. */
export function instantOf(text: string): bigint | null {
  const match =
    /^(\d{4,})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6})\d*)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(
      text.trim(),
    );
  if (!match) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone] = match;
  let ms = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0')) * 60_000;
  }
  return BigInt(ms) * 1000n + BigInt(fraction.padEnd(6, '0'));
}

/** <0, 0, >0 like Postgres comparing the two as the column's type; null when they cannot be compared. */
export function compareAs(kind: ComparableKind, actual: string, expected: string): number | null {
  switch (kind) {
    case 'number': {
      const a = Number(actual);
      const b = Number(expected);
      return Number.isNaN(a) || Number.isNaN(b) || expected.trim() === '' ? null : Math.sign(a - b);
    }
    case 'boolean':
      return Number(TRUE_WORDS.has(actual.toLowerCase())) - Number(TRUE_WORDS.has(expected.toLowerCase()));
    case 'instant': {
      const a = instantOf(actual);
      const b = instantOf(expected);
      return a === null || b === null ? null : a < b ? -1 : a > b ? 1 : 0;
    }
    case 'uuid':
      return compareText(actual.toLowerCase(), expected.toLowerCase());
    case 'text':
      return compareText(actual, expected);
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function likeToRegExp(pattern: string, caseInsensitive: boolean): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') source += (pattern[++i] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (char === '%' || char === '*') source += '.*';
    else if (char === '_') source += '.';
    else source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, caseInsensitive ? 'is' : 's');
}

function holds(condition: Condition, actual: string | null, kind: ComparableKind): boolean {
  if (condition.operator === 'is') {
    const keyword = condition.values[0]!.toLowerCase();
    if (keyword === 'null') return actual === null;
    if (keyword === 'unknown') return actual === null;
    return actual !== null && compareAs('boolean', actual, keyword) === 0;
  }
  // Comparisons with NULL are never true in SQL, negated or not.
  if (actual === null) return false;
  const [first] = condition.values;
  const order = () => compareAs(kind, actual, first!);
  switch (condition.operator) {
    case 'eq':
      return order() === 0;
    case 'neq': {
      const result = order();
      return result !== null && result !== 0;
    }
    case 'lt':
      return (order() ?? 0) < 0;
    case 'lte': {
      const result = order();
      return result !== null && result <= 0;
    }
    case 'gt':
      return (order() ?? 0) > 0;
    case 'gte': {
      const result = order();
      return result !== null && result >= 0;
    }
    case 'in':
      return condition.values.some((value) => compareAs(kind, actual, value) === 0);
    case 'like':
      return likeToRegExp(first!, false).test(actual);
    case 'ilike':
      return likeToRegExp(first!, true).test(actual);
  }
}

/**
 * Whether a row's values (text form, as printed by Postgres) pass the filter. A column absent from
 * `values` (e.g. a non-key column of a DELETE without REPLICA IDENTITY FULL) never matches.
 */
export function matchesFilter(
  filter: Filter,
  values: Record<string, string | null>,
  typeOf: (column: string) => string | undefined,
): boolean {
  return filter.every((condition) => {
    if (!(condition.column in values)) return false;
    const actual = values[condition.column] ?? null;
    const result = holds(condition, actual, comparableKind(typeOf(condition.column)));
    if (!condition.negate) return result;
    // NOT of an unknown (NULL) comparison is still unknown: no match.
    return condition.operator === 'is' ? !result : actual !== null && !result;
  });
}
